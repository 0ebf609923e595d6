import { BulbOutlined } from '@ant-design/icons';
import { FESTIVALS } from '@isps/contract';
import { App, Button, InputNumber, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormAddonProps } from '../../../shared/crud/index.ts';
import { useSuggestDates } from '../api/suggest-dates.ts';

/**
 * Beside the first festival of the rule form: fills the seven festivals and the swapped working days of a year (the
 * coming one by default) from the server's holiday library; the administrator checks them and saves.
 */
export function SuggestDatesButton({ form }: FormAddonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [year, setYear] = useState(() => new Date().getFullYear() + 1);
  const suggest = useSuggestDates();
  const run = async () => {
    try {
      const dates = await suggest.mutateAsync(year);
      form.setFieldsValue({ ...Object.fromEntries(FESTIVALS.map((f) => [f, dates.festivals[f].join(', ')])), workdays: dates.workdays.join(', ') });
      void form.validateFields([...FESTIVALS, 'workdays']).catch(() => undefined);
      void message.info(t(dates.official ? 'oaRule.suggestOfficial' : 'oaRule.suggestEstimated', { year }));
    } catch {
      // the request layer has shown why
    }
  };
  return (
    <Space.Compact>
      <InputNumber aria-label={t('oaRule.suggest', { year })} min={2000} max={2100} value={year} onChange={(v) => v && setYear(v)} style={{ width: 90 }} />
      <Button icon={<BulbOutlined />} loading={suggest.isPending} data-command="suggest" onClick={() => void run()}>
        {t('oaRule.suggest', { year })}
      </Button>
    </Space.Compact>
  );
}
