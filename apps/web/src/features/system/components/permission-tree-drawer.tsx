import { MenuType, type Envelope, type PermissionTreeNode } from '@isps/contract';
import { App, Button, Drawer, Empty, Flex, Input, Space, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import type { PermissionTree } from '../api/role-permissions.ts';

/**
 * The action of a button still named as seeded, `<action> (<area>/<screen>)` after its code `<area>:<screen>:<action>`:
 * such a name is no text for people, so the tree shows the action's own translation. Renamed buttons keep their name.
 */
function seededButtonAction(node: PermissionTreeNode): string | null {
  const action = node.perms?.split(':').pop();
  if (node.menuType !== MenuType.button || !action) return null;
  return node.title.startsWith(`${action} (`) && /^\S+ \([\w-]+\/[\w-]+\)$/.test(node.title) ? action : null;
}

function flatten(nodes: PermissionTreeNode[]): PermissionTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

export interface PermissionTreeDrawerProps {
  title: string;
  /** the menus and buttons that may be chosen (the whole tree, or a group's part of it) */
  tree: { data?: PermissionTree; isLoading: boolean };
  /** the ids held now */
  granted: { data?: string[]; isLoading: boolean };
  saving: boolean;
  onSave: (ids: string[]) => Promise<Envelope<null>>;
  onClose: () => void;
  /** shown instead of the tree when there is nothing to choose from */
  emptyText?: string;
}

/**
 * Menus and buttons as a checkable tree (each node checked on its own, as stored): check all, expand all, filter,
 * save. Roles, groups and group roles each give it their tree, their held ids and their save call.
 */
export function PermissionTreeDrawer({ title, tree, granted, saving, onSave, onClose, emptyText }: PermissionTreeDrawerProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [checked, setChecked] = useState<string[] | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const drawerSize = useDrawerSize();

  const all = useMemo(() => flatten(tree.data?.treeList ?? []), [tree.data]);

  const data = useMemo(() => {
    const titleOf = (node: PermissionTreeNode) => {
      if (i18n.exists(node.title)) return t(node.title);
      const action = seededButtonAction(node);
      return action && i18n.exists(`role.button.${action}`) ? t(`role.button.${action}`) : node.title;
    };
    const needle = filter.trim().toLowerCase();
    const build = (nodes: PermissionTreeNode[]): DataNode[] =>
      nodes.flatMap((node) => {
        const children = build(node.children ?? []);
        const title = titleOf(node);
        const matches = !needle || title.toLowerCase().includes(needle) || (node.perms ?? '').toLowerCase().includes(needle);
        if (!matches && children.length === 0) return [];
        // the code is for whoever needs it, on hover; the tree reads in the person's language
        const shown = node.perms ? <span title={node.perms}>{title}</span> : title;
        return [{ key: node.key, title: shown, children: children.length ? children : undefined }];
      });
    return build(tree.data?.treeList ?? []);
  }, [tree.data, filter, t, i18n]);

  // the stored permissions until the person changes the selection
  const current = checked ?? granted.data ?? [];
  const loading = tree.isLoading || granted.isLoading;
  const save = () =>
    onSave(current).then(
      (envelope) => {
        void message.success(envelope.message);
        onClose();
      },
      (error: unknown) => void message.error(error instanceof Error ? error.message : t('request.failed')),
    );

  return (
    <Drawer
      open
      title={title}
      size={drawerSize}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving} disabled={loading} onClick={() => void save()}>
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
            <Empty description={filter ? undefined : emptyText} />
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
