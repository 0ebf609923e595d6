import { MonitorLimits, type TraceEntry } from '@isps/contract';
import { Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { clockTime, formatMs } from '../components/format.ts';
import { MonitorFrame } from '../components/monitor-frame.tsx';
import styles from '../components/monitor.module.css';

const statusColor = (status: number) => (status >= 500 ? 'red' : status >= 400 ? 'orange' : status >= 300 ? 'blue' : 'green');

/** The last requests the server answered, newest first: no header, cookie, body or secret query value is kept. */
export default function HttpTracePage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const columns: TableColumnsType<TraceEntry> = [
    { key: 'time', title: t('monitor.trace.time'), dataIndex: 'time', width: 100, render: (time: number) => clockTime(time, lang) },
    { key: 'method', title: t('monitor.trace.method'), dataIndex: 'method', width: 90, render: (method: string) => <Tag>{method}</Tag> },
    { key: 'path', title: t('monitor.trace.path'), dataIndex: 'path', render: (path: string) => <span className={styles.path}>{path}</span> },
    { key: 'status', title: t('monitor.trace.status'), dataIndex: 'status', width: 90, render: (status: number) => <Tag color={statusColor(status)}>{status}</Tag> },
    { key: 'duration', title: t('monitor.trace.duration'), dataIndex: 'durationMs', width: 110, align: 'right', render: (ms: number) => formatMs(ms, lang) },
    { key: 'caller', title: t('monitor.trace.caller'), dataIndex: 'caller', width: 140, ellipsis: true },
  ];
  return (
    <MonitorFrame screen="httpTrace" defaultRefresh={10}>
      {(entries) => (
        <>
          <Typography.Text type="secondary">{t('monitor.trace.note', { size: MonitorLimits.traceSize })}</Typography.Text>
          <Table<TraceEntry>
            size="small"
            rowKey={(entry) => entries.indexOf(entry)}
            columns={columns}
            dataSource={entries}
            pagination={{ pageSize: 20, showSizeChanger: false, size: 'small' }}
            scroll={{ x: 760 }}
          />
        </>
      )}
    </MonitorFrame>
  );
}
