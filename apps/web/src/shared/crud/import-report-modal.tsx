import type { ImportReport } from '@isps/contract';
import { Alert, Modal, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

type ReportRow = ImportReport['rows'][number];

/** What an import did, row by row: added, or refused with the server's reason. */
export function ImportReportModal({ report, onClose }: { report: ImportReport; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open title={t('crud.importTitle')} onCancel={onClose} onOk={onClose} okText={t('crud.close')} cancelButtonProps={{ hidden: true }} width={640} destroyOnHidden>
      <Alert
        type={report.failed === 0 ? 'success' : report.added === 0 ? 'error' : 'warning'}
        showIcon
        title={t('crud.importSummary', { count: report.total, total: report.total, added: report.added, failed: report.failed })}
        style={{ marginBottom: 16 }}
      />
      <Table<ReportRow>
        rowKey="row"
        size="small"
        pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
        dataSource={report.rows}
        columns={[
          { key: 'row', title: t('crud.importRow'), dataIndex: 'row', width: 80 },
          {
            key: 'result',
            title: t('crud.importResult'),
            render: (_v, row) => (row.success ? <Tag color="success">{t('crud.importAdded')}</Tag> : <Tag color="error">{row.message}</Tag>),
          },
        ]}
      />
    </Modal>
  );
}
