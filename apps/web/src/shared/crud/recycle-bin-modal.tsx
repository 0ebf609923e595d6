import type { EntityDeclaration } from '@isps/contract';
import { App, Button, Modal, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteCompletely } from './api/delete-completely.ts';
import { useRecycleBin } from './api/list-recycle-bin.ts';
import { useRestoreEntities } from './api/restore-entities.ts';
import { CrudTable, type CrudColumn } from './crud-table.tsx';
import { columnWidth, displayValue, fieldLabelKey } from './entity-fields.ts';

/** Deleted rows: restore one or several, or delete them completely after a confirmation. */
export function RecycleBinModal({ entity, onClose }: { entity: EntityDeclaration; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [selected, setSelected] = useState<string[]>([]);
  const rows = useRecycleBin(entity, { pageNo: page.current, pageSize: page.pageSize }, true);
  const restore = useRestoreEntities(entity);
  const remove = useDeleteCompletely(entity);

  const run = async (action: typeof restore | typeof remove, ids: string[]) => {
    try {
      const envelope = await action.mutateAsync(ids);
      void message.success(envelope.message);
      setSelected((keys) => keys.filter((k) => !ids.includes(k)));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('request.failed'));
    }
  };
  const demandSelection = (then: () => void) => (selected.length === 0 ? void message.warning(t('crud.selectRecord')) : then());

  const columns: CrudColumn[] = [
    ...entity.columns.map((name) => ({ key: name, title: t(fieldLabelKey(entity, name)), render: (row: Record<string, unknown>) => displayValue(entity, name, row, t), width: columnWidth(entity, name), ellipsis: true })),
    {
      key: '__actions',
      title: t('crud.actions'),
      fixedRight: true,
      render: (row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void run(restore, [row.id])}>
            {t('crud.restore')}
          </Button>
          <Popconfirm title={t('crud.deleteCompletelyConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => run(remove, [row.id])}>
            <Button type="link" size="small" danger>
              {t('crud.deleteCompletely')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Modal open title={t('crud.recycleBin')} onCancel={onClose} footer={null} width={960} destroyOnHidden>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button onClick={() => demandSelection(() => void run(restore, selected))}>{t('crud.restoreSelected')}</Button>
        <Button
          danger
          onClick={() =>
            demandSelection(() =>
              modal.confirm({
                title: t('crud.deleteCompletelyConfirm'),
                okText: t('common.ok'),
                cancelText: t('common.cancel'),
                okButtonProps: { danger: true },
                onOk: () => run(remove, selected),
              }),
            )
          }
        >
          {t('crud.deleteCompletelySelected')}
        </Button>
      </Space>
      <CrudTable
        ariaLabel={t('crud.recycleBin')}
        columns={columns}
        rows={rows.data?.records ?? []}
        loading={rows.isFetching}
        pagination={{ ...page, total: rows.data?.total ?? 0 }}
        sort={null}
        onChange={({ current, pageSize }) => setPage({ current, pageSize })}
        selection={{ keys: selected, onChange: (keys) => setSelected(keys) }}
      />
    </Modal>
  );
}
