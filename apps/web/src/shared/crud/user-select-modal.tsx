import { userEntity } from '@isps/contract';
import { Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntityList } from './api/list-entity.ts';
import { CrudTable } from './crud-table.tsx';
import { displayValue, fieldLabelKey } from './entity-fields.ts';

export interface UserSelectModalProps {
  title: string;
  /** users already chosen elsewhere (shown, not selectable again) */
  exclude?: readonly string[];
  /** list filters that narrow the choice, e.g. `{ selecteddeparts: groupId }` for the members of a group */
  filter?: Readonly<Record<string, string>>;
  confirmLoading?: boolean;
  onOk: (ids: string[]) => void;
  onCancel: () => void;
}

/** The user selector: search by name, page through the users, tick several, confirm. */
export function UserSelectModal({ title, exclude = [], filter, confirmLoading, onOk, onCancel }: UserSelectModalProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [selected, setSelected] = useState<string[]>([]);
  const params = { ...filter, pageNo: page.current, pageSize: page.pageSize, column: 'username', order: 'asc', ...(keyword ? { realname: `*${keyword}*` } : {}) };
  const list = useEntityList(userEntity, params);
  const columns = (['username', 'realname', 'phone', 'selecteddeparts'] as const).map((name) => ({
    key: name,
    title: t(fieldLabelKey(userEntity, name)),
    render: (row: Record<string, unknown>) => displayValue(userEntity, name, row, t),
  }));
  const rows = (list.data?.records ?? []).filter((r) => !exclude.includes(r.id));
  return (
    <Modal open title={title} width={880} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={confirmLoading} okButtonProps={{ disabled: selected.length === 0 }} onOk={() => onOk(selected)} onCancel={onCancel} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input.Search
          aria-label={t('userSelect.search')}
          placeholder={t('userSelect.search')}
          allowClear
          onSearch={(value) => {
            setKeyword(value.trim());
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
        <CrudTable
          ariaLabel={title}
          columns={columns}
          rows={rows}
          loading={list.isFetching}
          pagination={{ current: page.current, pageSize: page.pageSize, total: list.data?.total ?? 0 }}
          sort={null}
          onChange={({ current, pageSize }) => setPage({ current, pageSize })}
          selection={{ keys: selected, onChange: (keys) => setSelected(keys) }}
        />
      </Space>
    </Modal>
  );
}
