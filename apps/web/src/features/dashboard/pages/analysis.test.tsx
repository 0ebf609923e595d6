import { ApiPath, DashboardFigurePermission, DoorState, RealtimeCmd, type DashboardDevices, type DashboardSummary } from '@isps/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { emitAppEvent } from '../../../shared/realtime/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import AnalysisPage from './analysis.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const summary: DashboardSummary = { userCount: 3, roleCount: 2, departCount: 1, onlineTokenCount: 1, loginsToday: 1, loginsLast7Days: [] };
let figures: DashboardDevices;
let reads: number;
let summaryReads: number;

/** The signed-in reader holds these permission codes. */
function holding(codes: readonly string[]) {
  useSession.getState().setPermissions([], codes.map((action) => ({ action, describe: action, type: '1' as const })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  holding(Object.values(DashboardFigurePermission));
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  reads = 0;
  summaryReads = 0;
  const hours = () => Array.from({ length: 24 }, () => 0);
  figures = {
    devicesOnline: 4,
    devicesOffline: 1,
    doorsOpen: 0,
    openAlarms: 0,
    eventsByHour: hours(),
    devicesBySystem: [{ system: 'access', online: 4, offline: 1 }],
    accessByHour: { openings: hours(), denials: hours() },
    alarmsByLevel: { L: 0, M: 0, H: 0 },
    attendanceToday: { normal: 5, late: 1, absent: 0 },
    cabinets: { occupied: 2, free: 6 },
    emergencyActive: false,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith(ApiPath.dashboardDevices)) {
        reads++;
        return Response.json(ok(figures));
      }
      if (url.pathname.endsWith(ApiPath.dashboardSummary)) {
        summaryReads++;
        return Response.json(ok(summary));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const figure = (key: string) => screen.getByTestId(`dashboard-${key}`).textContent;

describe('home page device figures', () => {
  it('reads the figures again when presence, door state or emergency messages arrive, once for a burst', async () => {
    renderInConsole(<AnalysisPage />);
    await waitFor(() => expect(figure('devicesOnline')).toContain('4'));
    expect(figure('devicesOffline')).toContain('1');
    expect(screen.getByText(i18n.t('dashboard.devicesOnline'))).toBeTruthy();
    expect(reads).toBe(1);

    // a device goes offline: one read for a burst of presence messages
    figures = { ...figures, devicesOnline: 3, devicesOffline: 2 };
    act(() => {
      emitAppEvent('deviceConnection', { connected: false, data: { ids: ['d1'] } });
      emitAppEvent('deviceConnection', { connected: false, data: { ids: ['d2'] } });
    });
    await waitFor(() => expect(figure('devicesOnline')).toContain('3'));
    expect(figure('devicesOffline')).toContain('2');
    expect(reads).toBe(2);

    figures = { ...figures, doorsOpen: 2 };
    act(() => emitAppEvent('doorState', { data: { doors: [{ id: 'r1', doorName: 'Front gate', deviceId: 'd1', state: DoorState.open, stateTime: '2026-11-25 09:00:00' }] } }));
    await waitFor(() => expect(figure('doorsOpen')).toContain('2'));
    expect(reads).toBe(3);

    figures = { ...figures, openAlarms: 1, emergencyActive: true };
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.emergency, data: { active: true } }));
    await waitFor(() => expect(figure('openAlarms')).toContain('1'));
    expect(reads).toBe(4);

    // other messages do not read them
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.topic, msgTxt: 'notice' }));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(reads).toBe(4);
  });
});

describe('home page figures by permission', () => {
  it('shows a device administrator the device figures only, and does not ask for the system counts', async () => {
    holding(['dashboard:analysis:view', 'device:list:list', 'device:door:list', 'device:alarm:list', 'device:accessEvent:list', 'device:cabinet:list']);
    renderInConsole(<AnalysisPage />);
    await waitFor(() => expect(figure('devicesOnline')).toContain('4'));
    for (const key of ['devicesOffline', 'doorsOpen', 'openAlarms']) expect(screen.getByTestId(`dashboard-${key}`)).toBeTruthy();
    expect(screen.getAllByText(i18n.t('dashboard.eventsByHour')).length).toBeGreaterThan(0);
    // the device charts the permissions cover, with their figures to read; no attendance without its permission
    for (const id of ['chart-access', 'chart-devices', 'chart-alarms', 'chart-cabinets']) expect(screen.getByTestId(id)).toBeTruthy();
    expect(screen.getByTestId('chart-cabinets').textContent).toContain(i18n.t('dashboard.cabinets.occupied'));
    expect(screen.queryByTestId('chart-attendance')).toBeNull();
    expect(screen.queryByTestId('chart-logins')).toBeNull();
    for (const key of ['userCount', 'roleCount', 'departCount', 'onlineTokenCount', 'loginsToday', 'loginsLast7Days']) {
      expect(screen.queryByText(i18n.t(`dashboard.${key}`))).toBeNull();
    }
    expect(summaryReads).toBe(0);
  });

  it('tells a reader whose permissions cover no figure so, and asks the server for none', async () => {
    holding(['dashboard:analysis:view']);
    renderInConsole(<AnalysisPage />);
    expect(await screen.findByText(i18n.t('dashboard.noFigures'))).toBeTruthy();
    expect([reads, summaryReads]).toEqual([0, 0]);
  });
});
