import { DownloadOutlined } from '@ant-design/icons';
import { ImportJobState, isImportJob, type EntityDeclaration, type ImportReport } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { downloadRefusedRows } from './api/export-entities.ts';

type ReportRow = ImportReport['rows'][number];

/**
 * What an import did: how many rows were added and refused, then the refused rows with the server's reasons (every
 * row when none was refused); why a cancelled or stopped job ended.
 */
export function ImportReportModal({ entity, report, onClose }: { entity: EntityDeclaration; report: ImportReport; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // the refused rows as a spreadsheet to correct and import again (a job's rows are kept on the server)
  const jobId = isImportJob(report) && report.failed > 0 ? report.jobId : null;
  const download = useMutation({
    mutationFn: (id: string) => downloadRefusedRows(entity, id),
    onSuccess: () => void message.success(t('crud.exported')),
  });
  const cutShort = isImportJob(report) && report.state !== ImportJobState.done ? report.message : null;
  // a cancelled job handled only part of the file: the summary counts the rows it read
  const handled = report.added + report.failed;
  const shown = report.failed > 0 ? report.rows.filter((row) => !row.success) : report.rows;
  return (
    <Modal open title={t('crud.importTitle')} onCancel={onClose} onOk={onClose} okText={t('crud.close')} footer={(_, { OkBtn }) => (
        <>
          {jobId ? (
            <Button icon={<DownloadOutlined />} loading={download.isPending} onClick={() => download.mutate(jobId)}>
              {t('crud.importRefusedDownload')}
            </Button>
          ) : null}
          <OkBtn />
        </>
      )} width={640} destroyOnHidden>
      {cutShort ? <Alert type="warning" showIcon title={cutShort} style={{ marginBottom: 16 }} /> : null}
      <Alert
        type={report.failed === 0 ? 'success' : report.added === 0 ? 'error' : 'warning'}
        showIcon
        title={t('crud.importSummary', { count: handled, total: handled, added: report.added, failed: report.failed })}
        style={{ marginBottom: 16 }}
      />
      <Table<ReportRow>
        rowKey="row"
        size="small"
        pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
        dataSource={shown}
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
