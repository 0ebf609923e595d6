import { MonitorLimits, type RuntimeInfo } from '@isps/contract';
import { Card, Col, Empty, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { clockTime, formatBytes, formatMs, formatPercent, uptimeParts } from '../components/format.ts';
import { MonitorFrame } from '../components/monitor-frame.tsx';
import { useChartStyle } from '../../../shared/ui/chart-style.tsx';
import styles from '../components/monitor.module.css';

const MB = 1024 * 1024;

function Figures({ info }: { info: RuntimeInfo }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const now = info.current;
  const last = info.samples[info.samples.length - 1];
  const figures: Array<{ key: string; value: string }> = [
    { key: 'heapUsed', value: formatBytes(now.heapUsed, lang) },
    { key: 'heapTotal', value: formatBytes(now.heapTotal, lang) },
    { key: 'rss', value: formatBytes(now.rss, lang) },
    { key: 'loopDelay', value: formatMs(last?.loopDelayP99 ?? now.loopDelayP99, lang) },
    { key: 'loopUtilization', value: formatPercent(last?.loopUtilization ?? now.loopUtilization, lang) },
    { key: 'gcPause', value: t('monitor.jvm.gcValue', { times: last?.gcCount ?? 0, ms: formatMs(last?.gcPauseMs ?? 0, lang) }) },
    { key: 'activeHandles', value: String(info.activeHandles) },
    { key: 'uptime', value: t('monitor.uptimeValue', uptimeParts(info.uptimeSeconds)) },
    { key: 'nodeVersion', value: info.nodeVersion },
  ];
  return (
    <Row gutter={[16, 16]}>
      {figures.map(({ key, value }) => (
        <Col key={key} xs={12} md={8} xl={8} xxl={{ flex: '20%' }}>
          <Card size="small" className={styles.figure}>
            <Statistic title={t(`monitor.jvm.${key}`)} value={value} valueStyle={{ fontSize: 20 }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function Charts({ info }: { info: RuntimeInfo }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { token, text, tooltip, grid, legend } = useChartStyle();
  if (info.samples.length === 0) return <Empty description={t('monitor.jvm.noSamples', { seconds: MonitorLimits.sampleMs / 1000 })} />;
  const points = info.samples.map((s) => ({
    time: clockTime(s.time, lang),
    heapUsed: Math.round((s.heapUsed / MB) * 10) / 10,
    heapTotal: Math.round((s.heapTotal / MB) * 10) / 10,
    rss: Math.round((s.rss / MB) * 10) / 10,
    loopDelayMean: s.loopDelayMean,
    loopDelayP99: s.loopDelayP99,
  }));
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <Card size="small" title={t('monitor.jvm.memoryChart')}>
          <div className={styles.chart} data-testid="monitor-memory-chart">
            <ResponsiveContainer>
              <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid stroke={grid} strokeDasharray="3 3" />
                <XAxis dataKey="time" minTickGap={40} tick={text} axisLine={{ stroke: grid }} tickLine={{ stroke: grid }} />
                <YAxis unit=" MB" width={72} tick={text} axisLine={{ stroke: grid }} tickLine={{ stroke: grid }} />
                <Tooltip {...tooltip} />
                <Legend {...legend} />
                <Line type="monotone" dataKey="heapUsed" name={t('monitor.jvm.heapUsed')} stroke={token.colorPrimary} dot={false} isAnimationActive={false} />
                <Line type="monotone" dataKey="heapTotal" name={t('monitor.jvm.heapTotal')} stroke={token.colorPrimaryBorderHover} dot={false} isAnimationActive={false} />
                <Line type="monotone" dataKey="rss" name={t('monitor.jvm.rss')} stroke={token.colorWarning} dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title={t('monitor.jvm.loopChart')}>
          <div className={styles.chart} data-testid="monitor-loop-chart">
            <ResponsiveContainer>
              <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid stroke={grid} strokeDasharray="3 3" />
                <XAxis dataKey="time" minTickGap={40} tick={text} axisLine={{ stroke: grid }} tickLine={{ stroke: grid }} />
                <YAxis unit=" ms" width={64} tick={text} axisLine={{ stroke: grid }} tickLine={{ stroke: grid }} />
                <Tooltip {...tooltip} />
                <Legend {...legend} />
                <Line type="monotone" dataKey="loopDelayMean" name={t('monitor.jvm.loopDelayMean')} stroke={token.colorSuccess} dot={false} isAnimationActive={false} />
                <Line type="monotone" dataKey="loopDelayP99" name={t('monitor.jvm.loopDelay')} stroke={token.colorError} dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </Col>
    </Row>
  );
}

/** The Node runtime (the origin console's JVM screen): memory, event loop and GC now, and the last hour charted. */
export default function JvmPage() {
  return (
    <MonitorFrame screen="jvm" defaultRefresh={5}>
      {(info) => (
        <>
          <Figures info={info} />
          <Charts info={info} />
        </>
      )}
    </MonitorFrame>
  );
}
