import { MenuType, dataRuleEntity, departRoleEntity, dictItemEntity, permissionCode, type EntityDeclaration } from '@isps/contract';
import { App, Button, Modal, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/permission/index.ts';
import { CrudScreen, useEntityLabels, useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../shared/crud/index.ts';
import { useExecuteFillRule } from './api/execute-fill-rule.ts';
import { useRefreshDictCache } from './api/refresh-dict-cache.ts';
import { useTestDataSourceConnection } from './api/test-data-source-connection.ts';
import { RoleAuthorizeDrawer } from './components/role-authorize-drawer.tsx';
import { GroupDataRuleDialog, RoleDataRuleDialog } from './components/data-rule-dialog.tsx';
import { dataLogExtension } from './components/data-log-compare.tsx';
import { GroupUsersDialog } from './components/group-users.tsx';
import { GroupPermissionsDrawer, GroupRolesDialog } from './components/group-roles.tsx';
import { jobExtension } from './components/job-actions.tsx';
import { userExtension } from './components/user-actions.tsx';
import { webhookExtension } from './components/webhook-actions.tsx';

type RowProps = CrudExtensionProps & { row: CrudRow };

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A dictionary row opens its items: the generic item screen fixed to that dictionary. */
function DictItemsAction({ row }: RowProps) {
  const { t } = useTranslation();
  return (
    <OpenerAction
      rowId={row.id}
      label={t('system.dict.items')}
      render={(close) => (
        <Modal open title={t('system.dict.itemsTitle', { name: text(row.dictName) })} footer={null} width={1000} onCancel={close} destroyOnHidden>
          <CrudScreen entity={dictItemEntity} fixed={{ dictId: row.id }} embedded />
        </Modal>
      )}
    />
  );
}

/** The items screen names its dictionary: the one it is opened on or searched by, else every dictionary. */
function DictItemsTitle({ conditions }: CrudExtensionProps & { conditions: Readonly<Record<string, unknown>> }) {
  const { t } = useTranslation();
  const dictId = typeof conditions.dictId === 'string' && conditions.dictId !== '' ? conditions.dictId : null;
  const [name] = useEntityLabels('dict', 'dictName', dictId);
  if (!dictId) return <>{t('system.dict.itemsOfEvery')}</>;
  // while the name loads, the screen's own title
  return <>{name ? t('system.dict.itemsTitle', { name }) : t(dictItemEntity.title)}</>;
}

function RefreshDictCache({ entity }: CrudExtensionProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefreshDictCache();
  return (
    <Authorized code={permissionCode(entity, 'refreshCache')}>
      <Button
        loading={refresh.isPending}
        onClick={() =>
          refresh.mutate(undefined, {
            onSuccess: (envelope) => void message.success(envelope.message),
            onError: (error) => void message.error(error.message),
          })
        }
      >
        {t('system.dict.refreshCache')}
      </Button>
    </Authorized>
  );
}

/** Connects with a saved data source's settings (its stored password) and says how it went. */
function TestConnectionAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const test = useTestDataSourceConnection();
  return (
    <Authorized code={permissionCode(entity, 'test')}>
      <Button
        type="link"
        size="small"
        loading={test.isPending}
        onClick={() =>
          test.mutate(
            { id: row.id, dbType: text(row.dbType), dbUrl: text(row.dbUrl), dbName: text(row.dbName) || null, dbUsername: text(row.dbUsername) || null },
            { onSuccess: (envelope) => void message.success(envelope.message), onError: (error) => void message.error(error.message) },
          )
        }
      >
        {t('dataSource.testConnection')}
      </Button>
    </Authorized>
  );
}

function ExecuteFillRuleAction({ row }: RowProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const execute = useExecuteFillRule();
  return (
    <Button
      type="link"
      size="small"
      loading={execute.isPending}
      onClick={() =>
        execute.mutate(text(row.ruleCode), {
          onSuccess: (value) =>
            void modal.info({
              title: t('system.fillRule.result'),
              content: <Typography.Text copyable>{text(value)}</Typography.Text>,
              okText: t('common.ok'),
            }),
          onError: (error) => void message.error(error.message),
        })
      }
    >
      {t('system.fillRule.execute')}
    </Button>
  );
}

/**
 * A row's link button that opens a dialog or drawer about the row (`code`: the button permission it needs, if any).
 * `render` draws the dialog while open and is given the way to close it.
 */
function OpenerAction({ rowId, code, label, render }: { rowId: string; code?: string; label: string; render: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useRowState(rowId, label, false);
  const opener = (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open ? render(() => setOpen(false)) : null}
    </>
  );
  return code ? <Authorized code={code}>{opener}</Authorized> : opener;
}

/** A role's permission tree and its data rules per menu. */
function RoleActions({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const name = text(row.roleName);
  const code = permissionCode(entity, 'authorize');
  return (
    <>
      <OpenerAction rowId={row.id} code={code} label={t('role.authorize')} render={(close) => <RoleAuthorizeDrawer roleId={row.id} roleName={name} onClose={close} />} />
      <OpenerAction rowId={row.id} code={code} label={t('dataRuleScreen.roleAction')} render={(close) => <RoleDataRuleDialog roleId={row.id} roleName={name} onClose={close} />} />
    </>
  );
}

/** A menu's data rules: the generic rule screen fixed to that menu. */
function MenuDataRulesAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  if (Number(row.menuType) === MenuType.button) return null;
  return (
    <OpenerAction
      rowId={row.id}
      code={permissionCode(entity, 'dataRule')}
      label={t('dataRule.title')}
      render={(close) => (
        <Modal open title={t('dataRuleScreen.menuTitle', { name: t(text(row.name)) })} footer={null} width={1000} onCancel={close} destroyOnHidden>
          <CrudScreen entity={dataRuleEntity} fixed={{ permissionId: row.id }} embedded />
        </Modal>
      )}
    />
  );
}

/** A group's users, the permissions and data rules it may hand out through its roles, and its roles. */
function GroupActions({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const name = text(row.departName);
  const authorize = permissionCode(entity, 'authorize');
  return (
    <>
      <OpenerAction rowId={row.id} label={t('groupUsers.action')} render={(close) => <GroupUsersDialog depId={row.id} name={name} onClose={close} />} />
      <OpenerAction rowId={row.id} code={authorize} label={t('groupRoles.permissionsAction')} render={(close) => <GroupPermissionsDrawer departId={row.id} name={name} onClose={close} />} />
      <OpenerAction rowId={row.id} code={authorize} label={t('dataRuleScreen.roleAction')} render={(close) => <GroupDataRuleDialog departId={row.id} name={name} onClose={close} />} />
      <OpenerAction rowId={row.id} code={permissionCode(departRoleEntity, 'list')} label={t('groupRoles.action')} render={(close) => <GroupRolesDialog departId={row.id} name={name} onClose={close} />} />
    </>
  );
}

/** Behaviour the system screens add beside their declarations, by entity name. */
export const systemExtensions: Readonly<Record<string, CrudExtension>> = {
  dict: { RowActions: DictItemsAction, Toolbar: RefreshDictCache },
  dictItem: { Title: DictItemsTitle },
  dataSource: { RowActions: TestConnectionAction },
  fillRule: { RowActions: ExecuteFillRuleAction },
  role: { RowActions: RoleActions },
  permission: { RowActions: MenuDataRulesAction },
  user: userExtension,
  quartzJob: jobExtension,
  dataLog: dataLogExtension,
  webhook: webhookExtension,
  depart: { RowActions: GroupActions },
};

export function extensionOf(entity: EntityDeclaration): CrudExtension | undefined {
  return systemExtensions[entity.name];
}
