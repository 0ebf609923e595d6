import { DatabaseOutlined } from '@ant-design/icons';
import { Card, Col, Descriptions, Empty, Progress, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../components/format.ts';
import { MonitorFrame } from '../components/monitor-frame.tsx';

/** Every mounted disk with its size, free space and use; the one holding the data folder is marked. */
export default function DiskPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <MonitorFrame screen="disk" defaultRefresh={30}>
      {(disks) =>
        disks.length === 0 ? (
          <Empty description={t('monitor.disk.empty')} />
        ) : (
          <Row gutter={[16, 16]}>
            {disks.map((disk) => (
              <Col key={disk.mount} xs={24} md={12} xl={8}>
                <Card
                  title={disk.mount}
                  extra={disk.dataDir && <Tag color="blue" icon={<DatabaseOutlined />}>{t('monitor.disk.dataDir')}</Tag>}
                  data-testid="monitor-disk-card"
                >
                  <Progress
                    percent={disk.usedPercent}
                    status={disk.usedPercent >= 90 ? 'exception' : 'normal'}
                    strokeColor={disk.usedPercent >= 90 ? undefined : disk.usedPercent >= 75 ? '#faad14' : undefined}
                  />
                  <Descriptions size="small" column={1} className="monitor-disk-figures">
                    <Descriptions.Item label={t('monitor.disk.size')}>{formatBytes(disk.size, lang)}</Descriptions.Item>
                    <Descriptions.Item label={t('monitor.disk.used')}>{formatBytes(disk.used, lang)}</Descriptions.Item>
                    <Descriptions.Item label={t('monitor.disk.free')}>{formatBytes(disk.free, lang)}</Descriptions.Item>
                    <Descriptions.Item label={t('monitor.disk.filesystem')}>{disk.filesystem}</Descriptions.Item>
                    <Descriptions.Item label={t('monitor.disk.type')}>{disk.type}</Descriptions.Item>
                  </Descriptions>
                </Card>
              </Col>
            ))}
          </Row>
        )
      }
    </MonitorFrame>
  );
}
