import { DoorPath, EmergencyPath, EmergencyPerm, type AuthItem, type EmergencyReport, type EmergencyScenario } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import EmergencyPage from './emergency.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'operator', realname: 'Operator', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const drill: EmergencyScenario = { id: 'e9', drill: true, deviceId: null, deviceName: null, startBy: 'lead', intensity: 0, pga: null, startTime: '2026-11-25 10:00:00', doorCount: 1, cabinetCount: 0, keyCount: 0, endTime: '2026-11-25 10:12:00', endBy: 'operator' };
const report: EmergencyReport = {
  scenario: drill,
  doors: [{ id: 'd1', name: 'East exit' }],
  rollCall: [
    { peopleId: 'p1', name: 'Wang Fang', userNo: 'U-771', areaName: 'Building A', doorName: 'Lobby', safeBy: 'operator', safeTime: '2026-11-25 10:05:00' },
    { peopleId: 'p2', name: 'Li Lei', userNo: null, areaName: null, doorName: null, safeBy: null, safeTime: null },
  ],
};

let calls: Array<{ method: string; path: string; body: unknown }>;

function grant(codes: string[]): void {
  useSession.getState().setPermissions([], codes.map((action) => ({ action, describe: '', type: '1' }) satisfies AuthItem), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      const method = init?.method ?? 'GET';
      calls.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith(EmergencyPath.setting)) return Response.json(ok({ enabled: true, threshold: 5, egressDoorIds: [] }, 'The emergency scenario setting is saved'));
      if (url.pathname.endsWith(DoorPath.status)) return Response.json(ok([]));
      if (url.pathname.endsWith(EmergencyPath.current)) return Response.json(ok({ active: false }));
      if (url.pathname.endsWith(EmergencyPath.list)) return Response.json(ok({ records: [drill], total: 1, size: 10, current: 1, pages: 1 }));
      if (url.pathname.endsWith(EmergencyPath.queryById)) return Response.json(ok(report));
      if (url.pathname.endsWith(EmergencyPath.drill)) return Response.json(ok({ ...drill, endTime: null, endBy: null }, 'The drill is started'));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('emergency scenario page', () => {
  it('refuses a threshold out of the scale with the range instead of saving 12', async () => {
    grant([EmergencyPerm.view, EmergencyPerm.edit]);
    renderInConsole(<EmergencyPage />);
    const input = await screen.findByRole('spinbutton', { name: i18n.t('emergency.setting.threshold') });
    fireEvent.change(input, { target: { value: '99' } });
    fireEvent.blur(input);
    fireEvent.click(screen.getByRole('button', { name: i18n.t('emergency.setting.save') }));
    await screen.findByText(i18n.t('emergency.setting.thresholdRange', { min: 1, max: 12 }));
    expect((input as HTMLInputElement).value).toBe('99');
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    fireEvent.change(input, { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: i18n.t('emergency.setting.save') }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ enabled: true, threshold: 7, egressDoorIds: [] }]));
  });

  it('starts a drill only for a holder of the permission and only after the confirmation', async () => {
    grant([EmergencyPerm.view]);
    const { unmount } = renderInConsole(<EmergencyPage />);
    await screen.findByText(i18n.t('emergency.reports.title'));
    expect(screen.queryByRole('button', { name: i18n.t('emergency.drill.start') })).toBeNull();
    unmount();

    grant([EmergencyPerm.view, EmergencyPerm.drill]);
    renderInConsole(<EmergencyPage />);
    fireEvent.click(await screen.findByRole('button', { name: i18n.t('emergency.drill.start') }));
    const popup = (await screen.findByText(i18n.t('emergency.drill.confirm'))).closest('.ant-popover') as HTMLElement;
    expect(calls.filter((c) => c.path.endsWith(EmergencyPath.drill))).toEqual([]);
    fireEvent.click(within(popup).getByRole('button', { name: i18n.t('emergency.drill.start') }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path.endsWith(EmergencyPath.drill))).toHaveLength(1));
  });

  it('lists past emergencies and opens one as a report: start, end, who, doors and roll call', async () => {
    grant([EmergencyPerm.view]);
    renderInConsole(<EmergencyPage />);
    const row = (await screen.findByText(i18n.t('emergency.reports.drill'))).closest('tr') as HTMLElement;
    expect(row.textContent).toContain('2026-11-25 10:00:00');
    expect(row.textContent).toContain('lead');
    fireEvent.click(within(row).getByRole('button', { name: i18n.t('emergency.reports.view') }));
    const view = await screen.findByTestId('emergency-report');
    expect(screen.getByText(i18n.t('emergency.report.drillTitle'))).toBeTruthy();
    expect(view.textContent).toContain('2026-11-25 10:00:00 · lead');
    expect(view.textContent).toContain('2026-11-25 10:12:00 · operator');
    expect(view.textContent).toContain('East exit');
    expect(view.textContent).toContain(i18n.t('emergency.rollCallSummary', { safe: 1, count: 2 }));
    expect(view.textContent).toContain(i18n.t('emergency.safeBy', { user: 'operator', time: '2026-11-25 10:05:00' }));
    expect(view.textContent).toContain(i18n.t('emergency.report.missing'));
  });
});
