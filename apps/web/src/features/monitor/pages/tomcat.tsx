import { Card, Col, Empty, Row, Statistic, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMs } from '../components/format.ts';
import { MonitorFrame } from '../components/monitor-frame.tsx';
import styles from '../components/monitor.module.css';

const statusColor = (group: string) => ({ '2xx': 'green', '3xx': 'blue', '4xx': 'orange', '5xx': 'red' })[group] ?? 'default';

/** The HTTP server (the origin console's Tomcat screen): request rate, latency, connections and sessions. */
export default function TomcatPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <MonitorFrame screen="tomcat" defaultRefresh={5}>
      {(info) => {
        const figures: Array<{ key: string; value: string | number }> = [
          { key: 'rps', value: info.requestsPerSecond },
          { key: 'totalRequests', value: info.totalRequests },
          { key: 'p50', value: formatMs(info.latencyMs.p50, lang) },
          { key: 'p95', value: formatMs(info.latencyMs.p95, lang) },
          { key: 'p99', value: formatMs(info.latencyMs.p99, lang) },
          { key: 'openConnections', value: info.openConnections },
          { key: 'websocketSessions', value: info.websocketSessions },
          { key: 'mqttDevices', value: info.mqttDevices },
          { key: 'mqttLinked', value: info.mqttLinked ? t('monitor.web.linked') : t('monitor.web.notLinked') },
        ];
        const statuses = Object.entries(info.statusCounts);
        return (
          <>
            <Row gutter={[16, 16]}>
              {figures.map(({ key, value }) => (
                <Col key={key} xs={12} md={8}>
                  <Card size="small" className={styles.figure}>
                    <Statistic title={t(`monitor.web.${key}`)} value={value} groupSeparator="," valueStyle={{ fontSize: 20 }} />
                  </Card>
                </Col>
              ))}
            </Row>
            <Card size="small" title={t('monitor.web.statusCounts')}>
              {statuses.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
              ) : (
                <Row gutter={[16, 16]}>
                  {statuses.map(([group, count]) => (
                    <Col key={group} xs={12} md={6}>
                      <Statistic title={<Tag color={statusColor(group)}>{group}</Tag>} value={count} groupSeparator="," />
                    </Col>
                  ))}
                </Row>
              )}
            </Card>
          </>
        );
      }}
    </MonitorFrame>
  );
}
