import { AUDIT_FIELDS, DataLogPath, entityDeclarations, permissionCode, type DataLogVersion } from '@isps/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http, unwrap } from '../../../shared/api/index.ts';
import { displayValue, fieldLabelKey, type CrudExtension, type CrudExtensionProps } from '../../../shared/crud/index.ts';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { useDrawerSize } from '../../../shared/ui/index.ts';

const show = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** Two versions of one record field by field; changed fields are marked. */
function CompareDialog({ ids, onClose }: { ids: [string, string]; onClose: () => void }) {
  const { t } = useTranslation();
  const size = useDrawerSize();
  const versions = useQuery({
    queryKey: ['data-log-compare', ...ids],
    queryFn: async () => unwrap(await http.get<DataLogVersion[]>(DataLogPath.compare, { dataId1: ids[0], dataId2: ids[1] })),
  });
  const [a, b] = versions.data ?? [];
  const entity = a ? entityDeclarations.find((e) => e.name === a.entity) : undefined;
  const fields = a && b ? [...new Set([...Object.keys(a.content), ...Object.keys(b.content)])] : [];
  // values as the screens show them (times, also the audit ones, and dictionary texts) when the record's screen is known
  const cell = (content: Record<string, unknown> | undefined, name: string) =>
    entity && content && (name in entity.fields || name in AUDIT_FIELDS) ? displayValue(entity, name, content, t) : show(content?.[name]);
  const rows = fields.map((name) => ({ key: name, name, before: cell(a?.content, name), after: cell(b?.content, name) }));
  return (
    <Modal open title={t('dataLogScreen.compareTitle')} footer={null} width={size === '100%' ? '100%' : 900} onCancel={onClose} destroyOnHidden>
      {versions.isError ? (
        <Typography.Text type="danger">{versions.error.message}</Typography.Text>
      ) : (
        <Table
          size="small"
          loading={versions.isLoading}
          pagination={false}
          dataSource={rows}
          rowClassName={(row) => (row.before !== row.after ? 'data-log-changed' : '')}
          onRow={(row) => (row.before !== row.after ? { style: { background: 'rgba(250, 173, 20, 0.15)' }, 'aria-label': t('dataLogScreen.changed') } : {})}
          columns={[
            { key: 'name', title: t('dataLogScreen.field'), dataIndex: 'name', render: (name: string) => (entity ? t(fieldLabelKey(entity, name)) : name) },
            { key: 'before', title: t('dataLogScreen.version', { version: a?.dataVersion ?? '' }), dataIndex: 'before' },
            { key: 'after', title: t('dataLogScreen.version', { version: b?.dataVersion ?? '' }), dataIndex: 'after' },
          ]}
        />
      )}
    </Modal>
  );
}

/** The one "check two versions" warning: a later one replaces it, and the comparison it asked for takes it away. */
const PICK_TWO = 'data-log-pick-two';

/** 'Compare' for exactly two checked versions. */
function CompareButton({ entity, selected }: CrudExtensionProps & { selected: string[]; clearSelection: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = usePermissionCheck();
  const [open, setOpen] = useState<[string, string] | null>(null);
  if (!can(permissionCode(entity, 'compare'))) return null;
  return (
    <>
      <Button
        onClick={() => {
          if (selected.length !== 2) return void message.warning({ key: PICK_TWO, content: t('dataLogScreen.pickTwo') });
          message.destroy(PICK_TWO);
          setOpen([selected[0] as string, selected[1] as string]);
        }}
      >
        {t('dataLogScreen.compare')}
      </Button>
      {open ? <CompareDialog ids={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

export const dataLogExtension: CrudExtension = { Toolbar: CompareButton, batch: true };
