import { MenuType, type DataRuleChoices, type Envelope, type PermissionTreeNode } from '@isps/contract';
import { useQuery, type UseMutationResult, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { App, Checkbox, Empty, Flex, Form, Modal, Spin, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { departDataRulesQuery, departRoleDataRulesQuery, useSaveDepartDataRules, useSaveDepartRoleDataRules } from '../api/depart-data-rules.ts';
import { useDepartRolePermissionTree } from '../api/depart-role-permissions.ts';
import { usePermissionTree } from '../api/role-permissions.ts';
import { roleDataRulesQuery, useSaveRoleDataRules } from '../api/role-data-rules.ts';

interface MenuNode {
  value: string;
  title: string;
  children?: MenuNode[];
}

interface DataRuleDialogProps {
  title: string;
  /** the menus to choose from */
  tree: UseQueryResult<{ treeList: PermissionTreeNode[] }>;
  /** the query of the rules offered on a menu and the ones held (for the chosen menu) */
  choices: (menuId: string | undefined) => UseQueryOptions<DataRuleChoices, Error, DataRuleChoices, readonly [string, string, string]>;
  save: UseMutationResult<Envelope<null>, Error, { permissionId: string; dataRuleIds: string[] }>;
  /** shown when a menu offers no rules */
  noneText: string;
  onClose: () => void;
}

/** Which data rules of a menu a role, a group or a group role holds: pick the menu, tick its rules, save. */
function DataRuleDialog({ title, tree, choices, save, noneText, onClose }: DataRuleDialogProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [menuId, setMenuId] = useState<string | undefined>();
  const rules = useQuery(choices(menuId));
  const [picked, setPicked] = useState<Record<string, string[]>>({});

  const menus = useMemo(() => {
    const titleOf = (node: PermissionTreeNode) => (i18n.exists(node.title) ? t(node.title) : node.title);
    const build = (nodes: PermissionTreeNode[]): MenuNode[] =>
      nodes
        .filter((n) => n.menuType !== MenuType.button)
        .map((n) => {
          const children = build(n.children ?? []);
          return { value: n.key, title: titleOf(n), ...(children.length ? { children } : {}) };
        });
    return build(tree.data?.treeList ?? []);
  }, [tree.data, t, i18n]);

  const current = menuId ? (picked[menuId] ?? rules.data?.granted ?? []) : [];
  const onSave = () => {
    if (!menuId) return void message.warning(t('dataRuleScreen.pickMenu'));
    save.mutate(
      { permissionId: menuId, dataRuleIds: current },
      { onSuccess: (envelope) => void message.success(envelope.message), onError: (error) => void message.error(error.message) },
    );
  };

  return (
    <Modal
      open
      title={title}
      okText={t('crud.save')}
      cancelText={t('common.cancel')}
      onOk={onSave}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('dataRuleScreen.menu')} htmlFor="role-data-rule-menu">
          <TreeSelect
            id="role-data-rule-menu"
            value={menuId}
            onChange={setMenuId}
            treeData={menus}
            showSearch
            treeNodeFilterProp="title"
            loading={tree.isLoading}
            placeholder={t('crud.select')}
            treeDefaultExpandAll
          />
        </Form.Item>
        <Form.Item label={t('dataRule.title')}>
          {!menuId ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dataRuleScreen.pickMenu')} />
          ) : rules.isLoading ? (
            <Spin />
          ) : (rules.data?.rules.length ?? 0) === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={noneText} />
          ) : (
            <Checkbox.Group value={current} onChange={(values) => setPicked((p) => ({ ...p, [menuId]: values as string[] }))}>
              <Flex vertical gap={8}>
                {rules.data?.rules.map((rule) => (
                  <Checkbox key={rule.id} value={rule.id} disabled={rule.status !== '1'}>
                    {rule.ruleName} ({rule.ruleColumn} {t(`dataRule.condition.${rule.ruleConditions}`)} {rule.ruleValue})
                  </Checkbox>
                ))}
              </Flex>
            </Checkbox.Group>
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The data rules a role holds, per menu. */
export function RoleDataRuleDialog({ roleId, roleName, onClose }: { roleId: string; roleName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveRoleDataRules(roleId);
  return (
    <DataRuleDialog
      title={t('dataRuleScreen.roleTitle', { name: roleName })}
      tree={usePermissionTree()}
      choices={(menuId) => roleDataRulesQuery(roleId, menuId)}
      save={save}
      noneText={t('dataRuleScreen.none')}
      onClose={onClose}
    />
  );
}

/** The data rules a group may hand to its roles, per menu it holds. */
export function GroupDataRuleDialog({ departId, name, onClose }: { departId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveDepartDataRules(departId);
  return (
    <DataRuleDialog
      title={t('dataRuleScreen.groupTitle', { name })}
      tree={useDepartRolePermissionTree(departId)}
      choices={(menuId) => departDataRulesQuery(departId, menuId)}
      save={save}
      noneText={t('dataRuleScreen.none')}
      onClose={onClose}
    />
  );
}

/** The data rules a group role holds, per menu, chosen from its group's. */
export function GroupRoleDataRuleDialog({ departId, roleId, name, onClose }: { departId: string; roleId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveDepartRoleDataRules(roleId);
  return (
    <DataRuleDialog
      title={t('dataRuleScreen.roleTitle', { name })}
      tree={useDepartRolePermissionTree(departId)}
      choices={(menuId) => departRoleDataRulesQuery(roleId, menuId)}
      save={save}
      noneText={t('dataRuleScreen.noneInGroup')}
      onClose={onClose}
    />
  );
}
