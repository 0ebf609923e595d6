import type { PermissionTreeNode } from '@isps/contract';
import { App, Button, Drawer, Empty, Flex, Input, Space, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import { usePermissionTree, useRolePermissionIds, useSaveRolePermissions } from '../api/role-permissions.ts';

function flatten(nodes: PermissionTreeNode[]): PermissionTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

/**
 * Menus and buttons of a role as a checkable tree (each node checked on its own, as stored): check all, expand
 * all, filter, save.
 */
export function RoleAuthorizeDrawer({ roleId, roleName, onClose }: { roleId: string; roleName: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const tree = usePermissionTree();
  const granted = useRolePermissionIds(roleId);
  const save = useSaveRolePermissions();
  const [checked, setChecked] = useState<string[] | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const drawerSize = useDrawerSize();

  const all = useMemo(() => flatten(tree.data?.treeList ?? []), [tree.data]);

  const data = useMemo(() => {
    // menu titles are i18n keys; a button shows its own name
    const titleOf = (node: PermissionTreeNode) => (i18n.exists(node.title) ? t(node.title) : node.title);
    const needle = filter.trim().toLowerCase();
    const build = (nodes: PermissionTreeNode[]): DataNode[] =>
      nodes.flatMap((node) => {
        const children = build(node.children ?? []);
        const title = titleOf(node);
        const matches = !needle || title.toLowerCase().includes(needle) || (node.perms ?? '').toLowerCase().includes(needle);
        if (!matches && children.length === 0) return [];
        return [{ key: node.key, title: node.perms ? `${title} · ${node.perms}` : title, children: children.length ? children : undefined }];
      });
    return build(tree.data?.treeList ?? []);
  }, [tree.data, filter, t, i18n]);

  // the stored permissions until the person changes the selection
  const current = checked ?? granted.data ?? [];
  const loading = tree.isLoading || granted.isLoading;
  const onSave = () =>
    save.mutate(
      { roleId, permissionIds: current },
      {
        onSuccess: (envelope) => {
          void message.success(envelope.message);
          onClose();
        },
        onError: (error) => void message.error(error.message),
      },
    );

  return (
    <Drawer
      open
      title={t('role.authorizeTitle', { name: roleName })}
      size={drawerSize}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} disabled={loading} onClick={onSave}>
            {t('crud.save')}
          </Button>
        </Flex>
      }
    >
      {loading ? (
        <Flex justify="center">
          <Spin />
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Input.Search allowClear placeholder={t('role.filterPermissions')} aria-label={t('role.filterPermissions')} onChange={(e) => setFilter(e.target.value)} />
          <Space wrap>
            <Button size="small" onClick={() => setChecked(all.map((n) => n.key))}>
              {t('role.checkAll')}
            </Button>
            <Button size="small" onClick={() => setChecked([])}>
              {t('role.uncheckAll')}
            </Button>
            <Button size="small" onClick={() => setExpanded(all.filter((n) => n.children?.length).map((n) => n.key))}>
              {t('role.expandAll')}
            </Button>
            <Button size="small" onClick={() => setExpanded([])}>
              {t('role.collapseAll')}
            </Button>
          </Space>
          {data.length === 0 ? (
            <Empty />
          ) : (
            <Tree
              checkable
              checkStrictly
              treeData={data}
              checkedKeys={current}
              onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
              expandedKeys={filter ? all.map((n) => n.key) : expanded}
              onExpand={(keys) => setExpanded(keys.map(String))}
            />
          )}
        </Flex>
      )}
    </Drawer>
  );
}
