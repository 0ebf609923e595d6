import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { feedback } from '../../../shared/api/index.ts';
import { logout, useSession } from '../../../shared/session/index.ts';
import { NewPasswordFields } from '../../../shared/ui/index.ts';
import { useUpdatePassword } from '../api/update-password.ts';

interface PasswordForm {
  oldpassword: string;
  password: string;
  confirmpassword: string;
}

export interface ChangePasswordDialogProps {
  open: boolean;
  /** an initial password must be replaced: the dialog cannot be dismissed */
  forced?: boolean;
  onClose?: () => void;
}

/** SPEC section 5; on success the server revokes every token of the user, so the user logs in again. */
export function ChangePasswordDialog({ open, forced = false, onClose }: ChangePasswordDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordForm>();
  const username = useSession((s) => s.userInfo?.username);
  const navigate = useNavigate();
  const update = useUpdatePassword();

  async function submit() {
    const values = await form.validateFields();
    if (!username) {
      feedback().notify('warning', t('common.notice'), t('password.noUser'), 4);
      return;
    }
    const answer = await update.mutateAsync({ username, ...values }).catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('warning', t('password.changeFailed'), answer.message || t('password.changeFailed'), 4);
      return;
    }
    feedback().notify('success', answer.message || t('password.changed'), t('password.loginAgain'), 4);
    form.resetFields();
    // The server has already revoked every token of the user, so only the local session is left to clear.
    await logout({ tellServer: false });
    onClose?.();
    navigate('/user/login', { replace: true });
  }

  return (
    <Modal
      open={open}
      title={t('password.title')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={forced ? undefined : onClose}
      confirmLoading={update.isPending}
      closable={!forced}
      keyboard={!forced}
      mask={{ closable: !forced }}
      cancelButtonProps={forced ? { style: { display: 'none' } } : undefined}
      destroyOnHidden
      forceRender
    >
      {forced ? <Alert type="warning" showIcon title={t('password.mustChange')} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} layout="vertical" requiredMark onFinish={() => void submit()} autoComplete="off">
        <Form.Item name="oldpassword" label={t('password.old')} rules={[{ required: true, message: t('password.oldRequired') }]}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <NewPasswordFields differentFrom="oldpassword" onPressEnter={() => void submit().catch(() => undefined)} />
      </Form>
    </Modal>
  );
}
