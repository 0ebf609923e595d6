import { SyncOutlined } from '@ant-design/icons';
import { AccessSyncPerm, SYNC_STATUSES, SyncStatus, type DeviceSyncStatusRow } from '@isps/contract';
import { App, Badge, Button, Card, Empty, Flex, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudTable, type CrudColumn, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { useAlignNow, useSyncStatus, type SyncStatusFilter } from '../api/sync-status.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';

const stateBadges: Record<SyncStatus, 'success' | 'processing' | 'error'> = { inSync: 'success', pending: 'processing', failed: 'error' };

/** A device's sync status: the state, with the changes waiting or the reason of the failure. */
export function SyncStateText({ row }: { row: DeviceSyncStatusRow }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap data-testid="sync-state" data-state={row.syncState}>
      <Badge status={stateBadges[row.syncState]} text={t(`device.syncState.${row.syncState}`)} />
      {row.syncState === SyncStatus.pending && row.syncPending > 0 ? <Tag>{t('syncStatus.pendingCount', { count: row.syncPending })}</Tag> : null}
      {row.syncState === SyncStatus.failed && row.syncReason ? <Tag color="red">{t(`syncStatus.reason.${row.syncReason}`, { defaultValue: row.syncReason })}</Tag> : null}
    </Space>
  );
}

/** "Align now": asks first, then queues the device's whole access list (device:syncStatus:align). */
function AlignNowButton({ row }: { row: DeviceSyncStatusRow }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const align = useAlignNow();
  return (
    <Authorized code={AccessSyncPerm.align}>
      <Button
        type="link"
        size="small"
        icon={<SyncOutlined />}
        loading={align.isPending && align.variables === row.id}
        data-command="alignNow"
        onClick={() =>
          modal.confirm({
            title: t('syncStatus.alignNow'),
            content: t(row.online ? 'syncStatus.alignConfirm' : 'syncStatus.alignConfirmOffline', { name: row.deviceName }),
            okText: t('common.ok'),
            cancelText: t('common.cancel'),
            onOk: async () => {
              try {
                const envelope = await align.mutateAsync(row.id);
                void message.success(envelope.message);
              } catch {
                // the request layer has shown why
              }
            },
          })
        }
      >
        {t('syncStatus.alignNow')}
      </Button>
    </Authorized>
  );
}

/**
 * The sync status page: each device with where its access list stands (in sync, pending with the changes waiting,
 * failed with the reason, last aligned), filtered by state and name, failed and pending first, read again every few
 * seconds; "align now" queues a device's whole list.
 */
export default function SyncStatusPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<SyncStatusFilter>({ pageNo: 1, pageSize: 20 });
  const [name, setName] = useState('');
  const status = useSyncStatus(filter);

  const columns: CrudColumn[] = [
    { key: 'deviceName', title: t('device.field.deviceName'), render: (row) => String(row.deviceName), phoneRank: 0 },
    { key: 'sn', title: t('device.field.sn'), render: (row) => String(row.sn) },
    {
      key: 'online',
      title: t('device.field.online'),
      render: (row) => <Badge status={row.online ? 'success' : 'default'} text={t(row.online ? 'device.online' : 'device.offline')} />,
      term: true,
    },
    { key: 'syncState', title: t('device.field.syncState'), render: (row) => <SyncStateText row={row as unknown as DeviceSyncStatusRow} />, phoneRank: 1, term: true },
    {
      key: 'syncAlignedTime',
      title: t('device.field.syncAlignedTime'),
      render: (row) => (row.syncAlignedTime ? formatTime(row.syncAlignedTime, 'datetime') : t('syncStatus.never')),
      width: 180,
    },
    { key: '__actions', title: t('crud.actions'), render: (row) => <AlignNowButton row={row as unknown as DeviceSyncStatusRow} />, fixedRight: true },
  ];

  if (status.isError && !status.data)
    return (
      <LoadFailed onRetry={() => void status.refetch()} />
    );

  const page = status.data;
  return (
    <Card
      title={t('menu.device.syncStatus')}
      extra={
        <Tooltip title={t('syncStatus.refreshHint')}>
          <Button icon={<SyncOutlined spin={status.isFetching} />} onClick={() => void status.refetch()} aria-label={t('syncStatus.refresh')} />
        </Tooltip>
      }
      data-testid="sync-status"
    >
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Select<SyncStatus | ''>
          aria-label={t('device.field.syncState')}
          style={{ minWidth: 160 }}
          value={filter.syncState ?? ''}
          options={[{ value: '', label: t('syncStatus.allStates') }, ...SYNC_STATUSES.map((s) => ({ value: s, label: t(`device.syncState.${s}`) }))]}
          onChange={(value) => setFilter((f) => ({ ...f, pageNo: 1, syncState: value === '' ? undefined : value }))}
        />
        <Input.Search
          aria-label={t('syncStatus.searchDevice')}
          placeholder={t('syncStatus.searchDevice')}
          allowClear
          style={{ maxWidth: 280 }}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onSearch={(value) => setFilter((f) => ({ ...f, pageNo: 1, deviceName: value.trim() || undefined }))}
        />
      </Flex>
      {page && page.total === 0 && !status.isFetching ? (
        <Empty description={t(filter.syncState || filter.deviceName ? 'syncStatus.noMatch' : 'syncStatus.empty')} />
      ) : (
        <CrudTable
          ariaLabel={t('menu.device.syncStatus')}
          columns={columns}
          rows={(page?.records ?? []) as unknown as CrudRow[]}
          loading={status.isPending}
          pagination={{ current: filter.pageNo, pageSize: filter.pageSize, total: page?.total ?? 0 }}
          sort={null}
          onChange={({ current, pageSize }) => setFilter((f) => ({ ...f, pageNo: pageSize === f.pageSize ? current : 1, pageSize }))}
        />
      )}
    </Card>
  );
}
