import type { ServerInfo } from '@isps/contract';
import { Badge, Card, Col, Descriptions, Progress, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, uptimeParts } from '../components/format.ts';
import { MonitorFrame } from '../components/monitor-frame.tsx';

type Section = { key: string; items: Array<{ key: string; value: ReactNode }> };

function sections(info: ServerInfo, t: (key: string, params?: Record<string, unknown>) => string, lang: string): Section[] {
  const used = info.memory.total - info.memory.free;
  return [
    {
      key: 'os',
      items: [
        { key: 'platform', value: info.os.platform },
        { key: 'release', value: info.os.release },
        { key: 'arch', value: info.os.arch },
        { key: 'hostname', value: info.os.hostname },
      ],
    },
    {
      key: 'cpu',
      items: [
        { key: 'cpuModel', value: info.cpu.model },
        { key: 'cpuCount', value: info.cpu.count },
        { key: 'loadAverage', value: info.cpu.loadAverage.map((l) => l.toFixed(2)).join(' / ') },
      ],
    },
    {
      key: 'memory',
      items: [
        { key: 'memoryTotal', value: formatBytes(info.memory.total, lang) },
        { key: 'memoryUsed', value: <Progress percent={Math.round((used / Math.max(1, info.memory.total)) * 1000) / 10} size="small" format={() => formatBytes(used, lang)} /> },
        { key: 'memoryFree', value: formatBytes(info.memory.free, lang) },
      ],
    },
    {
      key: 'process',
      items: [
        { key: 'pid', value: info.process.pid },
        { key: 'uptime', value: t('monitor.uptimeValue', uptimeParts(info.process.uptimeSeconds)) },
        { key: 'nodeVersion', value: info.process.nodeVersion },
      ],
    },
    {
      key: 'database',
      items: [
        { key: 'engine', value: info.database.engine },
        { key: 'version', value: info.database.version },
      ],
    },
    {
      key: 'broker',
      items: [
        { key: 'brokerKind', value: t(`monitor.server.brokerKind.${info.broker.kind}`) },
        { key: 'brokerUrl', value: info.broker.url ?? '—' },
        { key: 'brokerConnected', value: <Badge status={info.broker.connected ? 'success' : 'default'} text={info.broker.connected ? t('monitor.web.linked') : t('monitor.web.notLinked')} /> },
      ],
    },
  ];
}

const itemLabel = (key: string) => (key === 'uptime' ? 'monitor.jvm.uptime' : key === 'nodeVersion' ? 'monitor.jvm.nodeVersion' : `monitor.server.${key}`);

/** The machine and the services the console runs on: OS, CPU, memory, process, database, device broker. */
export default function ServerPage() {
  const { t, i18n } = useTranslation();
  return (
    <MonitorFrame screen="server" defaultRefresh={30}>
      {(info) => (
        <Row gutter={[16, 16]}>
          {sections(info, t, i18n.language).map((section) => (
            <Col key={section.key} xs={24} lg={12}>
              <Card size="small" title={t(`monitor.server.section.${section.key}`)}>
                <Descriptions size="small" column={1} bordered styles={{ label: { width: '40%' } }}>
                  {section.items.map((item) => (
                    <Descriptions.Item key={item.key} label={t(itemLabel(item.key))}>
                      {item.value}
                    </Descriptions.Item>
                  ))}
                </Descriptions>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </MonitorFrame>
  );
}
