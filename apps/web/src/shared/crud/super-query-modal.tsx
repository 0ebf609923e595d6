import { SUPER_QUERY_RULES, type EntityDeclaration, type SuperQueryCondition, type SuperQueryRule } from '@isps/contract';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Input, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey, queryableFields } from './entity-fields.ts';
import type { SuperQuery } from './query-params.ts';

const needsNoValue = (rule: SuperQueryRule) => rule === 'empty' || rule === 'not_empty';

/** The advanced query builder: rows of field, rule and value, joined by AND or OR. */
export function SuperQueryModal({ entity, value, onApply, onClose }: { entity: EntityDeclaration; value: SuperQuery | null; onApply: (query: SuperQuery | null) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const fields = queryableFields(entity);
  const [conditions, setConditions] = useState<SuperQueryCondition[]>(value?.conditions ?? [{ field: fields[0] ?? '', rule: 'eq', val: '' }]);
  const [matchType, setMatchType] = useState<'and' | 'or'>(value?.matchType ?? 'and');
  const update = (index: number, change: Partial<SuperQueryCondition>) => setConditions((list) => list.map((c, i) => (i === index ? { ...c, ...change } : c)));

  return (
    <Modal
      open
      title={t('crud.superQuery')}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      footer={[
        <Button key="clear" onClick={() => onApply(null)}>
          {t('crud.superQueryClear')}
        </Button>,
        <Button key="apply" type="primary" onClick={() => onApply(conditions.length > 0 ? { conditions, matchType } : null)}>
          {t('crud.superQueryApply')}
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        <Radio.Group
          aria-label={t('crud.superQueryMatch')}
          value={matchType}
          onChange={(e) => setMatchType(e.target.value as 'and' | 'or')}
          options={[
            { value: 'and', label: t('crud.superQueryAnd') },
            { value: 'or', label: t('crud.superQueryOr') },
          ]}
        />
        {conditions.length === 0 ? <Empty description={t('crud.superQueryEmpty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
        {conditions.map((condition, index) => (
          <Flex key={index} gap={8} wrap>
            <Select
              aria-label={t('crud.superQueryField')}
              style={{ flex: '1 1 160px' }}
              value={condition.field}
              onChange={(field: string) => update(index, { field })}
              options={fields.map((name) => ({ value: name, label: t(fieldLabelKey(entity, name)) }))}
            />
            <Select
              aria-label={t('crud.superQueryRule')}
              style={{ flex: '1 1 140px' }}
              value={condition.rule}
              onChange={(rule: SuperQueryRule) => update(index, { rule, ...(needsNoValue(rule) ? { val: '' } : {}) })}
              options={SUPER_QUERY_RULES.map((rule) => ({ value: rule, label: t(`crud.rule.${rule}`) }))}
            />
            <Input
              aria-label={t('crud.superQueryValue')}
              style={{ flex: '2 1 160px' }}
              value={condition.val === null || condition.val === undefined ? '' : String(condition.val)}
              disabled={needsNoValue(condition.rule)}
              onChange={(e) => update(index, { val: e.target.value })}
            />
            <Button aria-label={t('crud.superQueryRemoveCondition')} icon={<DeleteOutlined />} onClick={() => setConditions((list) => list.filter((_c, i) => i !== index))} />
          </Flex>
        ))}
        <Button type="dashed" icon={<PlusOutlined />} onClick={() => setConditions((list) => [...list, { field: fields[0] ?? '', rule: 'eq', val: '' }])}>
          {t('crud.superQueryAddCondition')}
        </Button>
      </Flex>
    </Modal>
  );
}
