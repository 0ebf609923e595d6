import { deviceRoleEntity } from '@isps/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Form, type FormInstance } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { displayValue } from './entity-fields.ts';
import { TimeSettingEditor } from './time-setting-editor.tsx';
import { fieldRules } from './zod-rules.ts';

const field = deviceRoleEntity.fields.timeSetting!;
const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});
afterEach(cleanup);

/** The editor as the modal form holds it: a Form.Item with the field's rules; returns the form and the values it got. */
function renderEditor(initial?: string, lang: 'en-US' | 'zh-CN' = 'en-US') {
  const values: string[] = [];
  let form: FormInstance | undefined;
  function Harness() {
    const [instance] = Form.useForm();
    form = instance;
    return (
      <Form form={instance} initialValues={{ timeSetting: initial }} onValuesChange={(changed: { timeSetting?: string }) => changed.timeSetting !== undefined && values.push(changed.timeSetting)}>
        <Form.Item name="timeSetting" label="Time setting" rules={fieldRules(field, { mode: 'add', label: t('deviceRole.field.timeSetting'), lang })} validateFirst>
          <TimeSettingEditor />
        </Form.Item>
      </Form>
    );
  }
  render(
    <I18nextProvider i18n={i18n}>
      <Harness />
    </I18nextProvider>,
  );
  return { values, form: () => form!, last: () => JSON.parse(values[values.length - 1]!) as unknown };
}

describe('time setting editor', () => {
  it('switches from permanent to custom and back, writing the stored form', () => {
    const editor = renderEditor('{"mode":"permanent"}');
    expect(screen.queryByText('Add a period')).toBeNull();
    fireEvent.click(screen.getByLabelText('Custom'));
    expect(editor.last()).toEqual({ mode: 'custom', startDate: null, endDate: null, periods: [], days: [] });
    // a custom setting without periods or day kinds says what it means
    expect(screen.getByText('All day')).toBeTruthy();
    expect(screen.getByText('Every day')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Permanent'));
    expect(editor.last()).toEqual({ mode: 'permanent' });
  });

  it('shows an overnight period as ending the next day, adds and removes periods, and picks day kinds', () => {
    const editor = renderEditor(JSON.stringify({ mode: 'custom', periods: [{ start: '22:00', end: '06:00' }, { start: '08:00', end: '12:00' }], days: [] }));
    const periods = screen.getAllByTestId('time-period');
    expect(periods).toHaveLength(2);
    expect(within(periods[0]!).getByText('next day')).toBeTruthy();
    expect(within(periods[1]!).queryByText('next day')).toBeNull();

    fireEvent.click(screen.getByLabelText('Workdays (weekdays that are not holidays)'));
    expect(editor.last()).toMatchObject({ days: ['workday'] });
    fireEvent.click(screen.getByLabelText('Weekends (Sat–Sun)'));
    expect(editor.last()).toMatchObject({ days: ['weekend', 'workday'] });

    fireEvent.click(within(periods[1]!).getByRole('button', { name: 'Remove the period' }));
    expect(editor.last()).toMatchObject({ periods: [{ start: '22:00', end: '06:00' }] });
    fireEvent.click(screen.getByText('Add a period'));
    expect(editor.last()).toMatchObject({ periods: [{ start: '22:00', end: '06:00' }, { start: '', end: '' }] });
  });

  it('names what is wrong with a period in the reader’s language, through the field’s own schema', async () => {
    const editor = renderEditor(JSON.stringify({ mode: 'custom', periods: [{ start: '08:00', end: '08:00' }] }));
    await act(async () => {
      await editor.form().validateFields().catch(() => undefined);
    });
    expect(await screen.findByText('Time setting: a period needs different start and end times (an end earlier than the start is the next day)')).toBeTruthy();
    cleanup();

    await i18n.changeLanguage('zh-CN');
    try {
      const chinese = renderEditor(JSON.stringify({ mode: 'custom', periods: [{ start: '', end: '' }] }), 'zh-CN');
      await act(async () => {
        await chinese.form().validateFields().catch(() => undefined);
      });
      expect(await screen.findByText('时间设置：请按 HH:mm 输入时间，如 08:30')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en-US');
    }
  });

  it('keeps Enter in a date or time picker from submitting the form around it (it takes the typed value)', () => {
    renderEditor(JSON.stringify({ mode: 'custom', periods: [{ start: '22:00', end: '06:00' }], days: [] }));
    for (const name of ['From', 'To', 'Start', 'End']) {
      // fireEvent answers false when a handler prevented the default action: the browser's implicit submission
      expect(fireEvent.keyDown(screen.getByLabelText(name), { key: 'Enter' }), name).toBe(false);
    }
    expect(fireEvent.keyDown(screen.getByLabelText('From'), { key: 'a' })).toBe(true);
  });

  it('summarises a stored setting in a list cell', () => {
    const row = (timeSetting: string) => ({ id: '1', timeSetting });
    expect(displayValue(deviceRoleEntity, 'timeSetting', row('{"mode":"permanent"}'), t)).toBe('Permanent');
    expect(displayValue(deviceRoleEntity, 'timeSetting', row(JSON.stringify({ mode: 'custom', startDate: '2025-01-01', endDate: '2025-12-31', periods: [{ start: '22:00', end: '06:00' }], days: ['workday'] })), t)).toBe(
      '2025-01-01 – 2025-12-31 · 22:00–06:00 (next day) · Workdays (weekdays that are not holidays)',
    );
    expect(displayValue(deviceRoleEntity, 'timeSetting', row(JSON.stringify({ mode: 'custom', periods: [], days: [] })), t)).toBe('All day · Every day');
  });
});
