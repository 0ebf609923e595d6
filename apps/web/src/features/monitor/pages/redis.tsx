import type { RedisInfoSection } from '@isps/contract';
import { Card, Col, Row, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { MonitorFrame } from '../components/monitor-frame.tsx';

type Entry = RedisInfoSection['entries'][number];

/** Redis' INFO, one table of keys and values per section; without REDIS_URL the screen says Redis is not configured. */
export default function RedisPage() {
  const { t } = useTranslation();
  const columns = [
    { key: 'key', title: t('monitor.redis.key'), dataIndex: 'key', width: '45%' },
    { key: 'value', title: t('monitor.redis.value'), dataIndex: 'value', render: (value: string) => <span style={{ overflowWrap: 'anywhere' }}>{value}</span> },
  ];
  return (
    <MonitorFrame screen="redis" defaultRefresh={10}>
      {(sections) => (
        <Row gutter={[16, 16]}>
          {sections.map((section) => (
            <Col key={section.name} xs={24} lg={12} xxl={8}>
              <Card size="small" title={section.name} data-testid="monitor-redis-section">
                <Table<Entry> size="small" rowKey="key" columns={columns} dataSource={section.entries} pagination={false} scroll={{ y: 320 }} />
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </MonitorFrame>
  );
}
