import { SOFT_UPDATE_STATE_NAMES, SoftUpdateState, type SoftUpdatePushRow } from '@isps/contract';
import { Drawer, Empty, Flex, Progress, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudRow } from '../../../shared/crud/index.ts';
import { useSoftUpdatePushes } from '../api/soft-update-pushes.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';

const stateColors: Record<SoftUpdateState, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' };
const progressStatus = (state: SoftUpdateState) => (state === SoftUpdateState.ok ? 'success' : state === SoftUpdateState.failed ? 'exception' : state === SoftUpdateState.running ? 'active' : 'normal');

/** Counts of the pushes by state, for the line above the bars. */
function countByState(rows: readonly SoftUpdatePushRow[]): Record<(typeof SOFT_UPDATE_STATE_NAMES)[number], number> {
  const counts = { queued: 0, running: 0, ok: 0, failed: 0 };
  for (const row of rows) counts[SOFT_UPDATE_STATE_NAMES[row.state] ?? 'queued'] += 1;
  return counts;
}

/** Every push of a package, one bar per device, moved by the `softUpdate` real-time messages; the device's error when it failed. */
export function PushProgressDrawer({ row, onClose }: { row: CrudRow; onClose: () => void }) {
  const { t } = useTranslation();
  const pushes = useSoftUpdatePushes(row.id);
  const rows = pushes.data ?? [];
  const counts = countByState(rows);
  const version = String(row.version ?? '');
  return (
    <Drawer open title={t('softUpdate.progressTitle', { version })} width="min(720px, 100vw)" onClose={onClose} destroyOnHidden>
      {pushes.isError && !pushes.data ? (
        <LoadFailed onRetry={() => void pushes.refetch()} />
      ) : rows.length === 0 && !pushes.isFetching ? (
        <Empty description={t('softUpdate.noPushes')} />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Text data-testid="soft-update-summary">{t('softUpdate.summary', { ...counts, total: rows.length })}</Typography.Text>
          <Table<SoftUpdatePushRow>
            aria-label={t('softUpdate.progressTitle', { version })}
            rowKey="id"
            size="small"
            loading={pushes.isFetching && !pushes.data}
            dataSource={rows}
            pagination={false}
            scroll={{ x: true }}
            onRow={(push) => ({ 'data-device': push.deviceName, 'data-state': SOFT_UPDATE_STATE_NAMES[push.state] }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { key: 'device', title: t('deviceRunLog.field.deviceId'), render: (_: unknown, push) => push.deviceName || push.deviceId },
              {
                key: 'progress',
                title: t('softUpdate.progress'),
                width: 220,
                render: (_: unknown, push) => <Progress percent={push.progress} size="small" status={progressStatus(push.state)} aria-label={t('softUpdate.progress')} />,
              },
              {
                key: 'state',
                title: t('softUpdate.state'),
                render: (_: unknown, push) => (
                  <Flex vertical gap={2}>
                    <Tag color={stateColors[push.state]} style={{ width: 'fit-content' }}>
                      {t(`softUpdate.state.${SOFT_UPDATE_STATE_NAMES[push.state]}`)}
                    </Tag>
                    {push.state === SoftUpdateState.failed && push.error ? <Typography.Text type="danger">{push.error}</Typography.Text> : null}
                  </Flex>
                ),
              },
            ]}
          />
        </Flex>
      )}
    </Drawer>
  );
}
