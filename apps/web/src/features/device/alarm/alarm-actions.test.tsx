import { alarmEntity, type AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { DeviceEntityScreen } from '../device-screen.tsx';
import { alarmSearchFilter } from './alarm-actions.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const alarm = (id: string, code: string, alarmCount: number) => ({ id, deviceId: 'dev1', code, level: 'M', state: 0, alarmCount, alarmTime: '2026-11-25 08:00:00', lastTime: '2026-11-25 09:30:00' });

let calls: Array<{ method: string; url: URL; body: unknown }>;

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  grant(['device:alarm:list', 'device:alarm:handle']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/sysDeviceAlarm/list')) {
        const records = [alarm('al1', 'tamper', 2431), alarm('al2', 'forcedOpen', 1), alarm('al3', 'xyzzy', 3)];
        return Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
      }
      if (url.pathname.endsWith('/queryTreeList')) return Response.json(ok([{ id: 'area1', areaName: 'Building A', parentId: '', children: [] }]));
      if (url.pathname.endsWith('/sysDeviceAlarm/batchCount')) return Response.json(ok({ count: 7 }));
      if (url.pathname.endsWith('/sysDeviceAlarm/closeBatch')) return Response.json(ok({ count: 2 }, 'Alarms closed: 2'));
      if (url.pathname.endsWith('/sysDeviceAlarm/acknowledgeBatch')) return Response.json(ok({ count: 7 }, 'Alarms acknowledged: 7'));
      return Response.json(ok({ records: [], total: 0, size: 10, current: 1, pages: 1 }));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const row = (text: string) => screen.getByText(text).closest('tr')!;

describe('alarms screen: folded alarms handled in bulk', () => {
  it('names known codes in the reader’s language, unknown ones as they came, with the count of each folded alarm', async () => {
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText(i18n.t('alarm.code.tamper'));
    expect(i18n.t('alarm.code.tamper')).toBe('Tamper');
    expect(row('Tamper').textContent).toContain('2431');
    expect(row('Tamper').textContent).toContain('2026-11-25 09:30:00');
    expect(screen.getByText(i18n.t('alarm.code.forcedOpen'))).toBeTruthy();
    expect(screen.getByText('xyzzy')).toBeTruthy();
  });

  it('closes the checked alarms after a confirmation that counts them', async () => {
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText('Tamper');
    fireEvent.click(row('Tamper').querySelector('input[type="checkbox"]')!);
    fireEvent.click(row('xyzzy').querySelector('input[type="checkbox"]')!);
    fireEvent.click(screen.getByTestId('alarm-close-selected'));
    await screen.findByText(i18n.t('alarm.batchConfirm.closeSelected', { count: 2 }));
    expect(calls.some((c) => c.url.pathname.endsWith('/closeBatch'))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('Alarms closed: 2');
    expect(calls.find((c) => c.url.pathname.endsWith('/sysDeviceAlarm/closeBatch'))).toMatchObject({ method: 'PUT', body: { ids: ['al1', 'al3'] } });
  });

  it('asks for a selection before a batch of the checked rows', async () => {
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText('Tamper');
    fireEvent.click(screen.getByTestId('alarm-acknowledge-selected'));
    await screen.findByText(i18n.t('alarm.selectFirst'));
    expect(calls.some((c) => c.url.pathname.includes('Batch'))).toBe(false);
  });

  it('acknowledges every alarm the search matches: counted first, the count confirmed', async () => {
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText('Tamper');
    fireEvent.click(screen.getByTestId('alarm-matching'));
    fireEvent.click(await screen.findByText(i18n.t('alarm.batch.acknowledgeMatching')));
    await screen.findByText(i18n.t('alarm.batchConfirm.acknowledgeMatching', { count: 7 }));
    expect(calls.find((c) => c.url.pathname.endsWith('/batchCount'))?.url.searchParams.get('to')).toBe('acknowledge');
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('Alarms acknowledged: 7');
    expect(calls.find((c) => c.url.pathname.endsWith('/sysDeviceAlarm/acknowledgeBatch'))).toMatchObject({ method: 'PUT', body: { filter: {} } });
  });

  it('offers no batch handling without device:alarm:handle', async () => {
    grant(['device:alarm:list']);
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText('Tamper');
    await waitFor(() => expect(screen.queryByTestId('alarm-close-selected')).toBeNull());
    expect(screen.queryByTestId('alarm-matching')).toBeNull();
  });

  it('takes the search’s code, device, area and time range as the batch filter, never its state', () => {
    const filter = alarmSearchFilter({ code: 'tamper', areaId: 'area1', state: '0', alarmTime: [dayjs('2026-11-01T00:00:00'), dayjs('2026-11-02T00:00:00')] });
    expect(Object.keys(filter).sort()).toEqual(['alarmTime_begin', 'alarmTime_end', 'areaId', 'code']);
    expect(filter).toMatchObject({ code: 'tamper', areaId: 'area1' });
    expect(filter.alarmTime_begin).toMatch(/^2026-11-01 00:00:00$|^2026-10-31/);
  });
});
