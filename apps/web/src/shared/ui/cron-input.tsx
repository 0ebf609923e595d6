import { isValidCron } from '@isps/contract';
import { Button, Dropdown, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface CronInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
}

type Describe = (expression: string, options: { locale: string; use24HourTimeFormat: boolean; dayOfWeekStartIndexZero: boolean }) => string;

/** The description library's locale for each console language. */
const LOCALES: Record<string, string> = { 'zh-CN': 'zh_CN', 'ja-JP': 'ja', 'en-US': 'en' };

/** Common schedules, in the Quartz form the server keeps (seconds first, weekday 1 = Sunday). */
const PRESETS = [
  ['cron.preset.everyMinute', '0 * * * * ?'],
  ['cron.preset.every5Minutes', '0 0/5 * * * ?'],
  ['cron.preset.hourly', '0 0 * * * ?'],
  ['cron.preset.daily2am', '0 0 2 * * ?'],
  ['cron.preset.mondays8am', '0 0 8 ? * 2'],
  ['cron.preset.monthly', '0 0 0 1 * ?'],
] as const;

let describer: Promise<Describe> | null = null;
/** The description library is loaded with the first cron field, not with the console. */
function loadDescriber(): Promise<Describe> {
  describer ??= import('cronstrue/i18n').then((m) => m.default.toString.bind(m.default) as Describe);
  return describer;
}

/** A cron expression with presets and a readable description in the reader's language. */
export function CronInput({ id, value = '', onChange, disabled }: CronInputProps) {
  const { t, i18n } = useTranslation();
  const [describe, setDescribe] = useState<Describe | null>(null);
  useEffect(() => {
    let current = true;
    void loadDescriber().then((fn) => current && setDescribe(() => fn));
    return () => {
      current = false;
    };
  }, []);
  const trimmed = value.trim();
  const valid = trimmed !== '' && isValidCron(trimmed);
  let description = '';
  if (valid && describe) {
    try {
      description = describe(trimmed, { locale: LOCALES[i18n.language] ?? 'en', use24HourTimeFormat: true, dayOfWeekStartIndexZero: false });
    } catch {
      description = '';
    }
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={4}>
      <Space.Compact block>
        <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} disabled={disabled} placeholder="0 0 2 * * ?" spellCheck={false} style={{ fontFamily: 'monospace' }} />
        <Dropdown
          disabled={disabled}
          trigger={['click']}
          menu={{ items: PRESETS.map(([key, expression]) => ({ key: expression, label: t(key) })), onClick: ({ key }) => onChange?.(key) }}
        >
          <Button disabled={disabled}>{t('cron.presets')}</Button>
        </Dropdown>
      </Space.Compact>
      {description ? (
        <Typography.Text type="secondary" data-testid="cron-description">
          {description}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
