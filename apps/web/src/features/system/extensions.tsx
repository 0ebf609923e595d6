import { MenuType, dataRuleEntity, departRoleEntity, dictItemEntity, permissionCode, type EntityDeclaration } from '@isps/contract';
import { App, Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/permission/index.ts';
import { CrudScreen, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../shared/crud/index.ts';
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

type RowProps = CrudExtensionProps & { row: CrudRow };

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A dictionary row opens its items: the generic item screen fixed to that dictionary. */
function DictItemsAction({ row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const fixed = { dictId: row.id };
  return (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('system.dict.items')}
      </Button>
      {open ? (
        <Modal open title={t('system.dict.itemsTitle', { name: text(row.dictName) })} footer={null} width={1000} onCancel={() => setOpen(false)} destroyOnHidden>
          <CrudScreen entity={dictItemEntity} fixed={fixed} embedded />
        </Modal>
      ) : null}
    </>
  );
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

/** Opens the permission tree of a role. */
function AuthorizeRoleAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={permissionCode(entity, 'authorize')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('role.authorize')}
      </Button>
      {open ? <RoleAuthorizeDrawer roleId={row.id} roleName={text(row.roleName)} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

/** The data rules a role holds, per menu. */
function RoleDataRuleAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={permissionCode(entity, 'authorize')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('dataRuleScreen.roleAction')}
      </Button>
      {open ? <RoleDataRuleDialog roleId={row.id} roleName={text(row.roleName)} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

function RoleActions(props: RowProps) {
  return (
    <>
      <AuthorizeRoleAction {...props} />
      <RoleDataRuleAction {...props} />
    </>
  );
}

/** A menu's data rules: the generic rule screen fixed to that menu. */
function MenuDataRulesAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (Number(row.menuType) === MenuType.button) return null;
  return (
    <Authorized code={permissionCode(entity, 'dataRule')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('dataRule.title')}
      </Button>
      {open ? (
        <Modal open title={t('dataRuleScreen.menuTitle', { name: t(text(row.name)) })} footer={null} width={1000} onCancel={() => setOpen(false)} destroyOnHidden>
          <CrudScreen entity={dataRuleEntity} fixed={{ permissionId: row.id }} embedded />
        </Modal>
      ) : null}
    </Authorized>
  );
}

/** A group's users. */
function GroupUsersAction({ row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('groupUsers.action')}
      </Button>
      {open ? <GroupUsersDialog depId={row.id} name={text(row.departName)} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** The permissions a group may hand out through its roles. */
function GroupPermissionsAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={permissionCode(entity, 'authorize')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('groupRoles.permissionsAction')}
      </Button>
      {open ? <GroupPermissionsDrawer departId={row.id} name={text(row.departName)} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

/** The data rules a group may hand to its roles. */
function GroupDataRulesAction({ entity, row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={permissionCode(entity, 'authorize')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('dataRuleScreen.roleAction')}
      </Button>
      {open ? <GroupDataRuleDialog departId={row.id} name={text(row.departName)} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

/** A group's roles. */
function GroupRolesAction({ row }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={permissionCode(departRoleEntity, 'list')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('groupRoles.action')}
      </Button>
      {open ? <GroupRolesDialog departId={row.id} name={text(row.departName)} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

function GroupActions(props: RowProps) {
  return (
    <>
      <GroupUsersAction {...props} />
      <GroupPermissionsAction {...props} />
      <GroupDataRulesAction {...props} />
      <GroupRolesAction {...props} />
    </>
  );
}

/** Behaviour the system screens add beside their declarations, by entity name. */
export const systemExtensions: Readonly<Record<string, CrudExtension>> = {
  dict: { RowActions: DictItemsAction, Toolbar: RefreshDictCache },
  dataSource: { RowActions: TestConnectionAction },
  fillRule: { RowActions: ExecuteFillRuleAction },
  role: { RowActions: RoleActions },
  permission: { RowActions: MenuDataRulesAction },
  user: userExtension,
  quartzJob: jobExtension,
  dataLog: dataLogExtension,
  depart: { RowActions: GroupActions },
};

export function extensionOf(entity: EntityDeclaration): CrudExtension | undefined {
  return systemExtensions[entity.name];
}
