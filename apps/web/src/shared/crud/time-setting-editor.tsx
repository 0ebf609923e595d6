import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { DAY_KINDS, type DayKind } from '@isps/contract';
import { Button, Checkbox, DatePicker, Radio, Space, Tag, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/**
 * The form's working copy of a time setting: what the stored JSON holds, with periods possibly half filled while the
 * user types (the field's schema then names what is missing, in the reader's language).
 */
interface Draft {
  mode: 'permanent' | 'custom';
  startDate?: string | null;
  endDate?: string | null;
  periods: Array<{ start: string; end: string }>;
  days: DayKind[];
}

const PERMANENT_TEXT = '{"mode":"permanent"}';
/** Date and time pickers share one width, so that two of them and the dash between fit a phone's form on one line. */
const PICKER_WIDTH = 132;

/** The draft of stored text; text that is no setting shows as permanent until the user picks. */
export function draftOf(value: unknown): Draft {
  try {
    const parsed = typeof value === 'string' && value.trim() !== '' ? (JSON.parse(value) as Partial<Draft>) : null;
    if (parsed && parsed.mode === 'custom') {
      return {
        mode: 'custom',
        startDate: parsed.startDate ?? null,
        endDate: parsed.endDate ?? null,
        periods: Array.isArray(parsed.periods) ? parsed.periods.map((p) => ({ start: String(p?.start ?? ''), end: String(p?.end ?? '') })) : [],
        days: Array.isArray(parsed.days) ? parsed.days.filter((d): d is DayKind => (DAY_KINDS as readonly string[]).includes(d)) : [],
      };
    }
  } catch {
    // shown as permanent; saving it again writes a readable setting
  }
  return { mode: 'permanent', periods: [], days: [] };
}

function textOf(draft: Draft): string {
  if (draft.mode === 'permanent') return PERMANENT_TEXT;
  return JSON.stringify({ mode: 'custom', startDate: draft.startDate ?? null, endDate: draft.endDate ?? null, periods: draft.periods, days: draft.days });
}

/** An end earlier than the start ends the next day (SPEC section 4). */
export const endsNextDay = (period: { start: string; end: string }) => /^\d\d:\d\d$/.test(period.start) && /^\d\d:\d\d$/.test(period.end) && period.end < period.start;

const clock = (value: string) => (/^\d\d:\d\d$/.test(value) ? dayjs().startOf('day').hour(Number(value.slice(0, 2))).minute(Number(value.slice(3, 5))) : null);
const day = (value: string | null | undefined) => (value && /^\d{4}-\d\d-\d\d$/.test(value) ? dayjs(value) : null);

interface Props {
  id?: string;
  value?: unknown;
  onChange?: (value: string) => void;
  disabled?: boolean;
}

/** Edits a time setting: permanent, or custom with a date range, time periods and day kinds. */
export function TimeSettingEditor({ id, value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const draft = draftOf(value);
  const change = (next: Partial<Draft>) => onChange?.(textOf({ ...draft, ...next }));
  const setPeriod = (index: number, part: 'start' | 'end', picked: Dayjs | null) =>
    change({ periods: draft.periods.map((p, i) => (i === index ? { ...p, [part]: picked ? picked.format('HH:mm') : '' } : p)) });

  return (
    // Enter takes a typed date or time in its picker: it must not also submit the form around the editor
    <Space id={id} orientation="vertical" size={8} style={{ width: '100%' }} data-testid="time-setting-editor" onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}>
      <Radio.Group
        value={draft.mode}
        disabled={disabled}
        onChange={(e) => change({ mode: e.target.value as Draft['mode'] })}
        options={[
          { value: 'permanent', label: t('timeSetting.permanent') },
          { value: 'custom', label: t('timeSetting.custom') },
        ]}
      />
      {draft.mode === 'custom' && (
        <>
          {/* titled above like the periods and days: on a phone the two dates then share one line */}
          <Typography.Text>{t('timeSetting.dates')}</Typography.Text>
          <Space wrap>
            <DatePicker
              aria-label={t('timeSetting.startDate')}
              placeholder={t('timeSetting.startDate')}
              style={{ width: PICKER_WIDTH }}
              value={day(draft.startDate)}
              disabled={disabled}
              onChange={(d: Dayjs | null) => change({ startDate: d ? d.format('YYYY-MM-DD') : null })}
            />
            <span>–</span>
            <DatePicker
              aria-label={t('timeSetting.endDate')}
              placeholder={t('timeSetting.endDate')}
              style={{ width: PICKER_WIDTH }}
              value={day(draft.endDate)}
              disabled={disabled}
              onChange={(d: Dayjs | null) => change({ endDate: d ? d.format('YYYY-MM-DD') : null })}
            />
          </Space>
          <Typography.Text>{t('timeSetting.periods')}</Typography.Text>
          {draft.periods.length === 0 && <Typography.Text type="secondary">{t('timeSetting.allDay')}</Typography.Text>}
          {draft.periods.map((period, index) => (
            <Space key={index} wrap data-testid="time-period">
              <TimePicker aria-label={t('timeSetting.periodStart')} placeholder={t('timeSetting.periodStart')} style={{ width: PICKER_WIDTH }} format="HH:mm" value={clock(period.start)} disabled={disabled} onChange={(v: Dayjs | null) => setPeriod(index, 'start', v)} />
              <span>–</span>
              <TimePicker aria-label={t('timeSetting.periodEnd')} placeholder={t('timeSetting.periodEnd')} style={{ width: PICKER_WIDTH }} format="HH:mm" value={clock(period.end)} disabled={disabled} onChange={(v: Dayjs | null) => setPeriod(index, 'end', v)} />
              {endsNextDay(period) && <Tag color="blue">{t('timeSetting.nextDay')}</Tag>}
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('timeSetting.removePeriod')}
                title={t('timeSetting.removePeriod')}
                disabled={disabled}
                onClick={() => change({ periods: draft.periods.filter((_, i) => i !== index) })}
              />
            </Space>
          ))}
          <Button icon={<PlusOutlined />} disabled={disabled} onClick={() => change({ periods: [...draft.periods, { start: '', end: '' }] })}>
            {t('timeSetting.addPeriod')}
          </Button>
          <Space wrap>
            <Typography.Text>{t('timeSetting.days')}</Typography.Text>
            <Checkbox.Group
              value={draft.days}
              disabled={disabled}
              onChange={(days) => change({ days: DAY_KINDS.filter((k) => (days as string[]).includes(k)) })}
              options={DAY_KINDS.map((kind) => ({ value: kind, label: t(`timeSetting.day.${kind}`) }))}
            />
            {draft.days.length === 0 && <Typography.Text type="secondary">{t('timeSetting.everyDay')}</Typography.Text>}
          </Space>
        </>
      )}
    </Space>
  );
}
