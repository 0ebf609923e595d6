import { alarmEntity, alarmFilter, permissionCode, type AlarmBatchAction, type AlarmBatchBody, type AlarmFilter } from '@isps/contract';
import { CheckOutlined, CloseCircleOutlined, DownOutlined, FilterOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterParams, type CrudExtension, type CrudExtensionProps } from '../../../shared/crud/index.ts';
import { usePermission } from '../../../shared/permission/index.ts';
import { countAlarmBatch, handleAlarms } from '../api/handle-alarms.ts';

/** The list's search as the batch filter: the fields a batch takes (the state is the handling's own). */
export function alarmSearchFilter(conditions: Readonly<Record<string, unknown>>): AlarmFilter {
  const params = filterParams(alarmEntity, { ...conditions });
  const keys = Object.keys(alarmFilter.shape) as Array<keyof AlarmFilter>;
  return Object.fromEntries(keys.filter((k) => params[k] !== undefined && params[k] !== '').map((k) => [k, String(params[k])])) as AlarmFilter;
}

/**
 * Acknowledge and close in bulk: the checked rows, or every alarm the search matches (counted first, the count asked
 * to confirm). Shown to holders of device:alarm:handle, the permission of the per-row handling.
 */
function AlarmBatchActions({ refresh, selected, clearSelection, conditions }: CrudExtensionProps & { selected: string[]; clearSelection: () => void; conditions?: Readonly<Record<string, unknown>> }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState<AlarmBatchAction | null>(null);
  const allowed = usePermission(permissionCode(alarmEntity, 'handle'));
  if (!allowed) return null;

  const run = async (action: AlarmBatchAction, body: AlarmBatchBody) => {
    setBusy(action);
    try {
      const envelope = await handleAlarms(action, body);
      if (!envelope.success) return void message.warning(envelope.message);
      void message.success(envelope.message);
      clearSelection();
      refresh();
    } finally {
      setBusy(null);
    }
  };

  const confirm = (action: AlarmBatchAction, count: number, body: AlarmBatchBody, matching: boolean) =>
    modal.confirm({
      title: t(action === 'acknowledge' ? 'alarm.acknowledge' : 'alarm.close'),
      content: t(`alarm.batchConfirm.${action}${matching ? 'Matching' : 'Selected'}`, { count }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => run(action, body),
    });

  const bySelection = (action: AlarmBatchAction) => {
    if (selected.length === 0) return void message.warning(t('alarm.selectFirst'));
    confirm(action, selected.length, { ids: selected }, false);
  };

  const byFilter = async (action: AlarmBatchAction) => {
    const filter = alarmSearchFilter(conditions ?? {});
    setBusy(action);
    try {
      const counted = await countAlarmBatch(action, filter);
      if (!counted.success) return void message.warning(counted.message);
      if (counted.result.count === 0) return void message.info(t('alarm.noneMatching'));
      confirm(action, counted.result.count, { filter }, true);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Button icon={<CheckOutlined />} data-testid="alarm-acknowledge-selected" loading={busy === 'acknowledge'} onClick={() => bySelection('acknowledge')}>
        {t('alarm.batch.acknowledgeSelected')}
      </Button>
      <Button icon={<CloseCircleOutlined />} data-testid="alarm-close-selected" loading={busy === 'close'} onClick={() => bySelection('close')}>
        {t('alarm.batch.closeSelected')}
      </Button>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'acknowledge', label: t('alarm.batch.acknowledgeMatching'), 'data-testid': 'alarm-acknowledge-matching' } as { key: string; label: string },
            { key: 'close', label: t('alarm.batch.closeMatching'), 'data-testid': 'alarm-close-matching' } as { key: string; label: string },
          ],
          onClick: ({ key }) => void byFilter(key as AlarmBatchAction),
        }}
      >
        <Button icon={<FilterOutlined />} data-testid="alarm-matching">
          {t('alarm.batch.matching')} <DownOutlined />
        </Button>
      </Dropdown>
    </>
  );
}

/** The alarms screen beside the generic list: rows can be checked for the batch handling. */
export const alarmExtension: CrudExtension = { Toolbar: AlarmBatchActions, batch: true };

