import { DownOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { UserStatus, permissionCode, userAgentEntity } from '@isps/contract';
import { App, Button, Dropdown, Form, Input, Modal, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudScreen, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { NewPasswordFields, useDrawerSize } from '../../../shared/ui/index.ts';
import { useChangeUserPassword, useSetUserStatus } from '../api/user-admin.ts';

type RowProps = CrudExtensionProps & { row: CrudRow };
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Freezes (after a confirmation: the users are signed out at once) or thaws users; reports the server's answer. */
function useStatusChange(refresh: () => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const setStatus = useSetUserStatus();
  const run = (ids: string[], status: 1 | 2, done?: () => void) =>
    setStatus
      .mutateAsync({ ids, status })
      .then((envelope) => {
        void message.success(envelope.message);
        refresh();
        done?.();
      })
      .catch((error: Error) => void message.error(error.message));
  return {
    pending: setStatus.isPending,
    thaw: (ids: string[], done?: () => void) => void run(ids, UserStatus.normal, done),
    freeze: (ids: string[], name: string, done?: () => void) =>
      modal.confirm({
        title: t('userScreen.freezeConfirm', { name }),
        content: t('userScreen.freezeHint'),
        okText: t('userScreen.freeze'),
        okButtonProps: { danger: true },
        cancelText: t('common.cancel'),
        onOk: () => run(ids, UserStatus.frozen, done),
      }),
  };
}

/** The administrator sets a user's password: the spec's strength rule, the two entries must match. */
function ResetPasswordDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string; confirmpassword: string }>();
  const change = useChangeUserPassword();
  const submit = async () => {
    const values = await form.validateFields();
    try {
      const envelope = await change.mutateAsync({ username, ...values });
      void message.success(envelope.message);
      onClose();
    } catch (error) {
      void message.error((error as Error).message);
    }
  };
  return (
    <Modal
      open
      title={t('userScreen.resetTitle', { name: username })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={change.isPending}
      destroyOnHidden
    >
      <Form form={form} name="reset-password" layout="vertical" requiredMark autoComplete="off" onFinish={() => void submit()}>
        <Form.Item label={t('user.field.username')}>
          <Input value={username} disabled />
        </Form.Item>
        <NewPasswordFields strength autoFocus onPressEnter={() => void submit().catch(() => undefined)} />
      </Form>
    </Modal>
  );
}

/** The agent setting of one user: the generic agent screen fixed to that user. */
function AgentDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const size = useDrawerSize();
  return (
    <Modal open title={t('userScreen.agentTitle', { name: username })} footer={null} width={size === '100%' ? '100%' : 960} onCancel={onClose} destroyOnHidden>
      <CrudScreen entity={userAgentEntity} fixed={{ userName: username }} embedded />
    </Modal>
  );
}

/** Freeze or thaw, reset password and agent setup of one user, under a 'More' menu. */
function UserRowActions({ entity, row, refresh }: RowProps) {
  const { t } = useTranslation();
  const has = usePermissionCheck();
  const [dialog, setDialog] = useState<'password' | 'agent' | null>(null);
  const status = useStatusChange(refresh);
  const frozen = Number(row.status) === UserStatus.frozen;
  // a self-registered account awaiting approval: approving it lets it sign in (the server's thaw, same permission)
  const awaiting = Number(row.status) === UserStatus.awaitingApproval;
  const name = text(row.username);
  const items: MenuProps['items'] = [
    has(permissionCode(entity, 'frozen')) && awaiting ? { key: 'approve', label: t('userScreen.approve') } : null,
    has(permissionCode(entity, 'frozen')) ? { key: 'status', label: frozen ? t('userScreen.thaw') : t('userScreen.freeze'), danger: !frozen } : null,
    has(permissionCode(entity, 'resetPassword')) ? { key: 'password', label: t('userScreen.resetPassword') } : null,
    has(permissionCode(entity, 'agent')) ? { key: 'agent', label: t('userScreen.agent') } : null,
  ].filter((item) => item !== null);
  if (items.length === 0) return null;
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'approve') status.thaw([row.id]);
    else if (key === 'status') {
      if (frozen) status.thaw([row.id]);
      else status.freeze([row.id], name);
    } else setDialog(key as 'password' | 'agent');
  };
  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button type="link" size="small" loading={status.pending}>
          {t('userScreen.more')} <DownOutlined />
        </Button>
      </Dropdown>
      {dialog === 'password' ? <ResetPasswordDialog username={name} onClose={() => setDialog(null)} /> : null}
      {dialog === 'agent' ? <AgentDialog username={name} onClose={() => setDialog(null)} /> : null}
    </>
  );
}

/** Freeze or thaw the checked users ('Please select a record!' without a selection). */
function UserBatchActions({ entity, refresh, selected, clearSelection }: CrudExtensionProps & { selected: string[]; clearSelection: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const has = usePermissionCheck();
  const status = useStatusChange(refresh);
  if (!has(permissionCode(entity, 'frozen'))) return null;
  const guard = (action: () => void) => () => {
    if (selected.length === 0) void message.warning(t('crud.selectRecord'));
    else action();
  };
  return (
    <>
      <Button icon={<LockOutlined />} loading={status.pending} onClick={guard(() => status.freeze(selected, t('crud.selected', { count: selected.length }), clearSelection))}>
        {t('userScreen.batchFreeze')}
      </Button>
      <Button icon={<UnlockOutlined />} loading={status.pending} onClick={guard(() => status.thaw(selected, clearSelection))}>
        {t('userScreen.batchThaw')}
      </Button>
    </>
  );
}

export const userExtension: CrudExtension = { RowActions: UserRowActions, Toolbar: UserBatchActions, batch: true };
