import type { KeyHistoryRow } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Empty, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudTable, type CrudColumn, type CrudRow } from '../../../shared/crud/index.ts';
import { useAppEvent } from '../../../shared/realtime/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { keyHistoryKey, useKeyHistory } from '../api/key-history.ts';

const take = (row: CrudRow) => row as unknown as KeyHistoryRow;

/** A key's takes and returns, newest first; a take or return reported meanwhile shows at once. */
export function KeyHistoryDialog({ keyId, keyName, onClose }: { keyId: string; keyName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const history = useKeyHistory(keyId);
  useAppEvent('realtimeMessage', (m) => {
    if (m.cmd === 'keyState' || m.cmd === 'keyOverdue') void client.invalidateQueries({ queryKey: keyHistoryKey });
  });
  const columns: CrudColumn[] = [
    { key: 'takeTime', title: t('key.history.takeTime'), render: (row) => formatTime(take(row).takeTime, 'datetime'), phoneRank: 0, width: 180 },
    {
      key: 'returnTime',
      title: t('key.history.returnTime'),
      render: (row) => (take(row).returnTime ? formatTime(take(row).returnTime, 'datetime') : <Tag color="orange">{t('key.history.notReturned')}</Tag>),
      phoneRank: 1,
      width: 180,
    },
    { key: 'people', title: t('key.history.people'), render: (row) => take(row).peopleName ?? '', phoneRank: 2 },
    { key: 'idCard', title: t('key.history.idCard'), render: (row) => take(row).idCard ?? '' },
    {
      key: 'overdueTime',
      title: t('key.history.overdueTime'),
      render: (row) => (take(row).overdueTime ? <Tag color="red">{formatTime(take(row).overdueTime, 'datetime')}</Tag> : ''),
      width: 180,
    },
  ];
  const rows = history.data ?? [];
  return (
    <Modal open title={t('key.historyTitle', { name: keyName })} onCancel={onClose} footer={null} width={860} destroyOnHidden>
      {history.isError && !history.data ? (
        <LoadFailed onRetry={() => void history.refetch()} />
      ) : history.data && rows.length === 0 ? (
        <Empty description={t('key.historyEmpty')} />
      ) : (
        <CrudTable ariaLabel={t('key.historyTitle', { name: keyName })} columns={columns} rows={rows as unknown as CrudRow[]} loading={history.isFetching} pagination={{ current: 1, pageSize: 10 }} sort={null} onChange={() => undefined} />
      )}
    </Modal>
  );
}
