import { UserAddOutlined } from '@ant-design/icons';
import { departRoleEntity, permissionCode, type DepartRoleHolder } from '@isps/contract';
import { App, Button, Flex, Modal, Popconfirm } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudScreen, CrudTable, UserSelectModal, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import { GroupRoleDataRuleDialog } from './data-rule-dialog.tsx';
import { useDepartPermissionIds, useSaveDepartPermissions } from '../api/depart-permissions.ts';
import { useDepartRolePermissionIds, useDepartRolePermissionTree, useSaveDepartRolePermissions } from '../api/depart-role-permissions.ts';
import { useChangeDepartRoleHolders, useDepartRoleHolders } from '../api/depart-role-users.ts';
import { usePermissionTree } from '../api/role-permissions.ts';
import { PermissionTreeDrawer } from './permission-tree-drawer.tsx';

type RowProps = CrudExtensionProps & { row: CrudRow };

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The menus and buttons a group may hand out through its roles, chosen from the whole tree. */
export function GroupPermissionsDrawer({ departId, name, onClose }: { departId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const tree = usePermissionTree();
  const granted = useDepartPermissionIds(departId);
  const save = useSaveDepartPermissions();
  return (
    <PermissionTreeDrawer
      title={t('groupRoles.permissionsTitle', { name })}
      tree={tree}
      granted={granted}
      saving={save.isPending}
      onSave={(permissionIds) => save.mutateAsync({ departId, permissionIds, lastIds: granted.data ?? [] })}
      onClose={onClose}
    />
  );
}

/** The menus and buttons of a group role, chosen from what its group holds. */
function GroupRoleAuthorizeDrawer({ departId, roleId, name, onClose }: { departId: string; roleId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const tree = useDepartRolePermissionTree(departId);
  const granted = useDepartRolePermissionIds(roleId);
  const save = useSaveDepartRolePermissions();
  return (
    <PermissionTreeDrawer
      title={t('role.authorizeTitle', { name })}
      tree={tree}
      granted={granted}
      saving={save.isPending}
      onSave={(permissionIds) => save.mutateAsync({ roleId, permissionIds, lastIds: granted.data ?? [] })}
      onClose={onClose}
      emptyText={t('groupRoles.groupHoldsNothing')}
    />
  );
}

/** The members holding a group role: give it to more members of the group, or take it back. */
function GroupRoleUsersDialog({ departId, roleId, name, onClose }: { departId: string; roleId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const holders = useDepartRoleHolders(roleId);
  const change = useChangeDepartRoleHolders();
  const [picking, setPicking] = useState(false);
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const fail = (error: unknown) => void message.error(error instanceof Error ? error.message : t('request.failed'));
  const rows = (holders.data ?? []) as Array<DepartRoleHolder & CrudRow>;
  const columns = [
    { key: 'username', title: t('user.field.username'), render: (row: CrudRow) => text(row.username) },
    { key: 'realname', title: t('user.field.realname'), render: (row: CrudRow) => text(row.realname) },
    {
      key: '__actions',
      title: t('crud.actions'),
      render: (row: CrudRow) => (
        <Popconfirm
          title={t('groupRoles.takeConfirm', { name: text(row.realname) || text(row.username) })}
          okText={t('common.ok')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() =>
            change
              .mutateAsync({ roleId, userIds: [row.id], change: 'take' })
              .then((envelope) => void message.success(envelope.message))
              .catch(fail)
          }
        >
          <Button type="link" size="small" danger>
            {t('groupRoles.take')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Modal open title={t('groupRoles.usersTitle', { name })} footer={null} width={720} onCancel={onClose} destroyOnHidden>
      <Flex vertical gap={12}>
        <Flex>
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setPicking(true)}>
            {t('groupRoles.give')}
          </Button>
        </Flex>
        <CrudTable
          ariaLabel={t('groupRoles.usersTitle', { name })}
          columns={columns}
          rows={rows}
          loading={holders.isFetching}
          pagination={{ current: page.current, pageSize: page.pageSize }}
          sort={null}
          onChange={({ current, pageSize }) => setPage({ current, pageSize })}
        />
      </Flex>
      {picking ? (
        <UserSelectModal
          title={t('groupRoles.give')}
          filter={{ selecteddeparts: departId }}
          exclude={rows.map((r) => r.id)}
          confirmLoading={change.isPending}
          onCancel={() => setPicking(false)}
          onOk={(userIds) =>
            change
              .mutateAsync({ roleId, userIds, change: 'give' })
              .then((envelope) => {
                void message.success(envelope.message);
                setPicking(false);
              })
              .catch(fail)
          }
        />
      ) : null}
    </Modal>
  );
}

function groupRoleActions(departId: string) {
  return function GroupRoleActions({ entity, row }: RowProps) {
    const { t } = useTranslation();
    const [open, setOpen] = useState<'authorize' | 'dataRules' | 'users' | null>(null);
    const name = text(row.roleName);
    return (
      <>
        <Authorized code={permissionCode(entity, 'authorize')}>
          <Button type="link" size="small" onClick={() => setOpen('authorize')}>
            {t('role.authorize')}
          </Button>
        </Authorized>
        <Authorized code={permissionCode(entity, 'authorize')}>
          <Button type="link" size="small" onClick={() => setOpen('dataRules')}>
            {t('dataRuleScreen.roleAction')}
          </Button>
        </Authorized>
        <Authorized code={permissionCode(entity, 'user')}>
          <Button type="link" size="small" onClick={() => setOpen('users')}>
            {t('groupRoles.users')}
          </Button>
        </Authorized>
        {open === 'authorize' ? <GroupRoleAuthorizeDrawer departId={departId} roleId={row.id} name={name} onClose={() => setOpen(null)} /> : null}
        {open === 'dataRules' ? <GroupRoleDataRuleDialog departId={departId} roleId={row.id} name={name} onClose={() => setOpen(null)} /> : null}
        {open === 'users' ? <GroupRoleUsersDialog departId={departId} roleId={row.id} name={name} onClose={() => setOpen(null)} /> : null}
      </>
    );
  };
}

/** The roles of one group: the group role screen fixed to the group, each role with its permissions and members. */
export function GroupRolesDialog({ departId, name, onClose }: { departId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const size = useDrawerSize();
  const extension = useMemo<CrudExtension>(() => ({ RowActions: groupRoleActions(departId) }), [departId]);
  return (
    <Modal open title={t('groupRoles.title', { name })} footer={null} width={size === '100%' ? '100%' : 1100} onCancel={onClose} destroyOnHidden>
      <CrudScreen entity={departRoleEntity} fixed={{ departId }} extension={extension} embedded />
    </Modal>
  );
}
