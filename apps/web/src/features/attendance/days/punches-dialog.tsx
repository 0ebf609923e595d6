import type { AttendancePunchRow } from '@isps/contract';
import { Empty, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudTable, type CrudColumn, type CrudRow } from '../../../shared/crud/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { useDayPunches } from '../api/day-punches.ts';

const punch = (row: CrudRow) => row as unknown as AttendancePunchRow;

/** The punches a day's result was read from: when (corrected by the device's clock), the device's own time, where. */
export function PunchesDialog({ dayId, day, onClose }: { dayId: string; day: string; onClose: () => void }) {
  const { t } = useTranslation();
  const punches = useDayPunches(dayId);
  const columns: CrudColumn[] = [
    { key: 'punchTime', title: t('attendance.punch.time'), render: (row) => formatTime(punch(row).punchTime, 'datetime'), phoneRank: 0, width: 180 },
    { key: 'rawTime', title: t('attendance.punch.rawTime'), render: (row) => formatTime(punch(row).rawTime, 'datetime'), width: 180 },
    { key: 'device', title: t('attendance.punch.device'), render: (row) => punch(row).deviceName ?? '', phoneRank: 1 },
    {
      key: 'source',
      title: t('attendance.punch.source'),
      render: (row) => (
        <>
          {t(`attendance.punch.source.${punch(row).source}`)} {punch(row).duplicate ? <Tag color="default">{t('attendance.punch.duplicate')}</Tag> : null}
        </>
      ),
      phoneRank: 2,
    },
  ];
  const rows = punches.data ?? [];
  return (
    <Modal open title={t('attendance.punchesTitle', { day })} onCancel={onClose} footer={null} width={820} destroyOnHidden>
      {punches.isError && !punches.data ? (
        <LoadFailed onRetry={() => void punches.refetch()} />
      ) : punches.data && rows.length === 0 ? (
        <Empty description={t('attendance.noPunches')} />
      ) : (
        <CrudTable ariaLabel={t('attendance.punchesTitle', { day })} columns={columns} rows={rows as unknown as CrudRow[]} loading={punches.isFetching} pagination={{ current: 1, pageSize: 10 }} sort={null} onChange={() => undefined} />
      )}
    </Modal>
  );
}
