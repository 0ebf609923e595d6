import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Result, Select, Skeleton, Space, Typography } from 'antd';
import { MonitorLimits } from '@isps/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMonitor, type MonitorScreen, type MonitorSources } from '../api/monitor-queries.ts';
import { clockTime } from './format.ts';
import styles from './monitor.module.css';

/** The refresh choice of a screen: off, or every 5, 10, 30 s. */
export function RefreshSelect({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={t('monitor.autoRefresh')}
      className={styles.refresh}
      value={value}
      onChange={onChange}
      options={MonitorLimits.refreshSeconds.map((seconds) => ({ value: seconds, label: seconds === 0 ? t('monitor.refreshOff') : t('monitor.refreshEvery', { seconds }) }))}
    />
  );
}

/** What a screen shows when its source is unavailable: the screen's own message and the server's reason. */
export function MonitorFailed({ screen, reason, onRetry }: { screen: MonitorScreen | 'redisTerminal'; reason?: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t(`monitor.fetchFailed.${screen}`)}
      subTitle={reason}
      data-testid="monitor-failed"
      extra={
        onRetry && (
          <Button type="primary" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )
      }
    />
  );
}

/**
 * A monitoring screen: its toolbar (last update, refresh now, auto-refresh interval), then its figures, or its
 * own failure message when the source is unavailable; never a broken page.
 */
export function MonitorFrame<S extends MonitorScreen>({ screen, defaultRefresh = 10, children }: { screen: S; defaultRefresh?: number; children: (data: MonitorSources[S]) => ReactNode }) {
  const { t, i18n } = useTranslation();
  const [refresh, setRefresh] = useState(defaultRefresh);
  const query = useMonitor(screen, refresh);
  return (
    <Flex vertical gap={16} data-testid={`monitor-${screen}`}>
      <Flex wrap gap={8} align="center" justify="space-between" className={styles.toolbar}>
        <Typography.Text type="secondary">{query.dataUpdatedAt > 0 && t('monitor.updatedAt', { time: clockTime(query.dataUpdatedAt, i18n.language) })}</Typography.Text>
        <Space wrap>
          <Typography.Text>{t('monitor.autoRefresh')}</Typography.Text>
          <RefreshSelect value={refresh} onChange={setRefresh} />
          <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
            {t('monitor.refresh')}
          </Button>
        </Space>
      </Flex>
      {query.isError ? (
        <MonitorFailed screen={screen} reason={query.error.message} onRetry={() => void query.refetch()} />
      ) : query.data === undefined ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        children(query.data)
      )}
    </Flex>
  );
}
