import { MenuType, type PermissionTreeNode } from '@isps/contract';
import { App, Checkbox, Empty, Flex, Form, Modal, Spin, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissionTree } from '../api/role-permissions.ts';
import { useRoleDataRules, useSaveRoleDataRules } from '../api/role-data-rules.ts';

interface MenuNode {
  value: string;
  title: string;
  children?: MenuNode[];
}

/** Which data rules of a menu a role holds: pick the menu, tick its rules, save. */
export function RoleDataRuleDialog({ roleId, roleName, onClose }: { roleId: string; roleName: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const tree = usePermissionTree();
  const [menuId, setMenuId] = useState<string | undefined>();
  const rules = useRoleDataRules(roleId, menuId);
  const save = useSaveRoleDataRules();
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
      { roleId, permissionId: menuId, dataRuleIds: current },
      { onSuccess: (envelope) => void message.success(envelope.message), onError: (error) => void message.error(error.message) },
    );
  };

  return (
    <Modal
      open
      title={t('dataRuleScreen.roleTitle', { name: roleName })}
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
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dataRuleScreen.none')} />
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
