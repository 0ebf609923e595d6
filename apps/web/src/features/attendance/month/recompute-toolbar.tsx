import { ReloadOutlined } from '@ant-design/icons';
import { permissionCode } from '@isps/contract';
import { App, Button, DatePicker, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudExtensionProps } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { useRecomputeMonth } from '../api/recompute-month.ts';

/** The month list's "Recompute": any past month (the last one by default) computed again from its punches. */
export function RecomputeToolbar({ entity }: CrudExtensionProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [month, setMonth] = useState<Dayjs>(() => dayjs().subtract(1, 'month'));
  const recompute = useRecomputeMonth();
  const run = async () => {
    const value = month.format('YYYY-MM');
    try {
      const envelope = await recompute.mutateAsync(value);
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(t('attendanceMonth.recomputed', { month: value, people: envelope.result.people, days: envelope.result.days }));
    } catch {
      // the request layer has shown why
    }
  };
  return (
    <Authorized code={permissionCode(entity, 'recompute')}>
      <Space.Compact>
        <DatePicker picker="month" aria-label={t('attendanceMonth.recomputeMonth')} value={month} allowClear={false} onChange={(v) => v && setMonth(v)} disabledDate={(d) => d.isAfter(dayjs(), 'month')} style={{ width: 120 }} />
        <Button icon={<ReloadOutlined />} loading={recompute.isPending} data-command="recompute" onClick={() => void run()}>
          {t('attendanceMonth.recompute')}
        </Button>
      </Space.Compact>
    </Authorized>
  );
}
