import { EmergencyPath, EmergencyPerm, RealtimeCmd, type AuthItem, type EmergencyScenario, type EmergencyRelease, type EmergencyState, type MusterArea } from '@isps/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { emitAppEvent } from '../../shared/realtime/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { EmergencyAlarm } from './emergency-alarm.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'operator', realname: 'Operator', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const scenario: EmergencyScenario = { id: 'e1', drill: false, startBy: 'Q-1', deviceId: 'q1', deviceName: 'Quake sensor A', intensity: 6, pga: 0.31, startTime: '2026-11-25 09:00:00', doorCount: 2, cabinetCount: 0, keyCount: 0, endTime: null, endBy: null };
const muster: MusterArea[] = [
  { areaId: 'a1', areaName: 'Building A', people: [{ peopleId: 'p1', name: 'Wang Fang', userNo: 'U-771', doorName: 'Lobby', since: '2026-11-25 08:10:00', safeBy: null, safeTime: null }], unknown: [] },
  { areaId: null, areaName: null, people: [], unknown: [{ label: '****1234', doorName: null, since: '2026-11-25 08:20:00' }] },
];

let current: EmergencyState;
let ends: unknown[];
let marks: unknown[];
let musterNow: MusterArea[];
let releasesNow: EmergencyRelease[];

function grant(codes: string[]): void {
  useSession.getState().setPermissions([], codes.map((action) => ({ action, describe: '', type: '1' }) satisfies AuthItem), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  grant([]);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  current = { active: false };
  ends = [];
  marks = [];
  musterNow = muster;
  releasesNow = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith(EmergencyPath.current)) return Response.json(ok(current));
      if (url.pathname.endsWith(EmergencyPath.muster)) return Response.json(ok(musterNow));
      if (url.pathname.endsWith(EmergencyPath.releases)) return Response.json(ok(releasesNow));
      if (url.pathname.endsWith(EmergencyPath.rollCall)) {
        const body = JSON.parse(String(init?.body)) as { peopleId: string; safe: boolean };
        marks.push(body);
        if (body.peopleId === 'gone') return Response.json({ success: false, message: 'This person does not exist', code: 500, result: null, timestamp: 1 });
        musterNow = muster.map((a) => ({ ...a, people: a.people.map((p) => (p.peopleId === body.peopleId ? { ...p, safeBy: 'operator', safeTime: '2026-11-25 09:02:00' } : p)) }));
        return Response.json(ok({ peopleId: body.peopleId, name: 'Wang Fang', userNo: 'U-771', areaName: 'Building A', doorName: 'Lobby', safeBy: 'operator', safeTime: '2026-11-25 09:02:00' }, 'Wang Fang is marked safe'));
      }
      if (url.pathname.endsWith(EmergencyPath.end)) {
        ends.push(JSON.parse(String(init?.body)));
        current = { active: false, scenario: { ...scenario, endTime: '2026-11-25 09:05:00', endBy: 'operator' } };
        return Response.json(ok(current.scenario, 'The emergency scenario is ended'));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const alarm = () => screen.queryByTestId('emergency-alarm');
const endButton = () => screen.queryByRole('button', { name: i18n.t('emergency.end') });

describe('emergency alarm', () => {
  it('stays away while nothing runs, then covers the console on an emergency message with the scenario and the muster list', async () => {
    renderInConsole(<EmergencyAlarm />);
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes(EmergencyPath.current))).toBe(true));
    expect(alarm()).toBeNull();

    current = { active: true, scenario };
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.emergency, msgId: scenario.id, data: current }));
    const overlay = await screen.findByTestId('emergency-alarm');
    expect(overlay.getAttribute('role')).toBe('alertdialog');
    expect(within(overlay).getByRole('heading', { level: 1 }).textContent).toContain(i18n.t('emergency.title'));
    expect(overlay.textContent).toContain('Quake sensor A');
    expect(overlay.textContent).toContain(i18n.t('emergency.doorsHeld', { count: 2 }));
    await within(overlay).findByText('Wang Fang (U-771)');
    expect(overlay.textContent).toContain('Building A');
    expect(overlay.textContent).toContain(i18n.t('emergency.noArea'));
    expect(overlay.textContent).toContain('****1234');

    // the end message takes it away on every console
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.emergency, msgId: scenario.id, data: { active: false, scenario } }));
    await waitFor(() => expect(alarm()).toBeNull());
  });

  it('shows at start when a scenario is already running, and to a user who may not end it says so without an End button', async () => {
    current = { active: true, scenario };
    renderInConsole(<EmergencyAlarm />);
    await screen.findByTestId('emergency-alarm');
    expect(endButton()).toBeNull();
    expect(alarm()!.textContent).toContain(i18n.t('emergency.onlyPermitted'));
  });

  it('reads the state again when the socket reopens', async () => {
    renderInConsole(<EmergencyAlarm />);
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.length).toBeGreaterThan(0));
    expect(alarm()).toBeNull();
    // a message missed while the socket was down
    current = { active: true, scenario };
    act(() => emitAppEvent('realtimeOpen', {}));
    await screen.findByTestId('emergency-alarm');
  });

  it('keeps a scenario the message started when a read begun before it answers that nothing runs', async () => {
    renderInConsole(<EmergencyAlarm />);
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.length).toBeGreaterThan(0));
    // the socket reopens: the state is read again, and that answer is slow to come
    let answer: (state: EmergencyState) => void = () => undefined;
    const stale = new Promise<EmergencyState>((resolve) => (answer = resolve));
    const plain = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (input, init) => (String(input).includes(EmergencyPath.current) ? Response.json(ok(await stale)) : plain(input, init)));
    act(() => emitAppEvent('realtimeOpen', {}));
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.filter(([url]) => String(url).includes(EmergencyPath.current))).toHaveLength(2));

    current = { active: true, scenario };
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.emergency, msgId: scenario.id, data: current }));
    await screen.findByTestId('emergency-alarm');
    await act(async () => answer({ active: false }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alarm()).not.toBeNull();
  });

  it('ends the scenario for an operator holding the permission only after the confirmation', async () => {
    grant([EmergencyPerm.end]);
    current = { active: true, scenario };
    renderInConsole(<EmergencyAlarm />);
    await screen.findByTestId('emergency-alarm');
    expect(alarm()!.textContent).not.toContain(i18n.t('emergency.onlyPermitted'));

    fireEvent.click(endButton()!);
    const confirm = await screen.findByText(i18n.t('emergency.endConfirm'));
    expect(ends).toEqual([]);
    const popup = confirm.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByRole('button', { name: i18n.t('emergency.end') }));
    await waitFor(() => expect(alarm()).toBeNull());
    expect(ends).toEqual([{ id: scenario.id }]);
  });

  it('keeps the scenario running when the confirmation is cancelled', async () => {
    grant([EmergencyPerm.end]);
    current = { active: true, scenario };
    renderInConsole(<EmergencyAlarm />);
    await screen.findByTestId('emergency-alarm');
    fireEvent.click(endButton()!);
    const popup = (await screen.findByText(i18n.t('emergency.endConfirm'))).closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByRole('button', { name: i18n.t('common.cancel') }));
    await waitFor(() => expect(popup.className).toContain('hidden'));
    expect(ends).toEqual([]);
    expect(alarm()).not.toBeNull();
  });
  it('sits above every notice and toast of the console, so its End control is never covered', async () => {
    grant([EmergencyPerm.end]);
    current = { active: true, scenario };
    renderInConsole(<EmergencyAlarm />);
    const overlay = await screen.findByTestId('emergency-alarm');
    // antd draws notifications at zIndexPopupBase + 50 and messages at + 10
    const noticeLayer = theme.getDesignToken().zIndexPopupBase + 50;
    expect(Number(overlay.style.zIndex)).toBeGreaterThan(noticeLayer);
    fireEvent.click(endButton()!);
    const popup = (await screen.findByText(i18n.t('emergency.endConfirm'))).closest('.ant-popover') as HTMLElement;
    expect(Number(popup.style.zIndex)).toBeGreaterThan(Number(overlay.style.zIndex));
  });

  it('marks a drill as a drill: its title, badge and words, and an End the drill control', async () => {
    grant([EmergencyPerm.end]);
    current = { active: true, scenario: { ...scenario, drill: true, deviceId: null, deviceName: null, intensity: 0, startBy: 'lead' } };
    renderInConsole(<EmergencyAlarm />);
    const overlay = await screen.findByTestId('emergency-alarm');
    expect(overlay.dataset.drill).toBe('true');
    const heading = within(overlay).getByRole('heading', { level: 1 }).textContent;
    expect(heading).toContain(i18n.t('emergency.drillTitle'));
    expect(heading).toContain(i18n.t('emergency.drillBadge'));
    expect(overlay.textContent).toContain(i18n.t('emergency.drillSubtitle', { user: 'lead', time: '2026-11-25 09:00:00' }));
    expect(overlay.textContent).not.toContain(i18n.t('emergency.title'));
    expect(screen.getByRole('button', { name: i18n.t('emergency.endDrill') })).toBeTruthy();
  });

  it('lists people only, unknown cards apart, and lets a holder of the roll call mark a person safe', async () => {
    current = { active: true, scenario };
    const { unmount } = renderInConsole(<EmergencyAlarm />);
    const overlay = await screen.findByTestId('emergency-alarm');
    await within(overlay).findByText('Wang Fang (U-771)');
    // the unknown card is no person: listed apart, not counted
    expect(overlay.textContent).toContain(i18n.t('emergency.unknownCards'));
    expect(overlay.textContent).toContain(i18n.t('emergency.peopleCount', { count: 0 }));
    expect(overlay.textContent).toContain(i18n.t('emergency.rollCallSummary', { safe: 0, count: 1 }));
    expect(screen.queryByRole('button', { name: `${i18n.t('emergency.markSafe')}: Wang Fang (U-771)` })).toBeNull();
    unmount();

    grant([EmergencyPerm.rollCall]);
    renderInConsole(<EmergencyAlarm />);
    fireEvent.click(await screen.findByRole('button', { name: `${i18n.t('emergency.markSafe')}: Wang Fang (U-771)` }));
    await screen.findByText(i18n.t('emergency.safeBy', { user: 'operator', time: '2026-11-25 09:02:00' }));
    expect(marks).toEqual([{ id: scenario.id, peopleId: 'p1', safe: true }]);
    expect(screen.getByTestId('emergency-alarm').textContent).toContain(i18n.t('emergency.rollCallSummary', { safe: 1, count: 1 }));
    expect(screen.getByRole('button', { name: `${i18n.t('emergency.unmarkSafe')}: Wang Fang (U-771)` })).toBeTruthy();
  });

  it('shows a refused mark in the alarm itself (the console notices are under it)', async () => {
    grant([EmergencyPerm.rollCall]);
    musterNow = [{ areaId: 'a1', areaName: 'Building A', people: [{ peopleId: 'gone', name: 'Ghost', userNo: null, doorName: null, since: '2026-11-25 08:00:00', safeBy: null, safeTime: null }], unknown: [] }];
    current = { active: true, scenario };
    renderInConsole(<EmergencyAlarm />);
    fireEvent.click(await screen.findByRole('button', { name: `${i18n.t('emergency.markSafe')}: Ghost` }));
    const alert = await within(screen.getByTestId('emergency-alarm')).findByRole('alert');
    expect(alert.textContent).toContain('This person does not exist');
  });

  it('prints the muster list as a roll call sheet', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    current = { active: true, scenario };
    renderInConsole(<EmergencyAlarm />);
    await within(await screen.findByTestId('emergency-alarm')).findByText('Wang Fang (U-771)');
    fireEvent.click(screen.getByRole('button', { name: new RegExp(i18n.t('emergency.print')) }));
    const sheet = await screen.findByTestId('roll-call-sheet');
    expect(print).toHaveBeenCalledTimes(1);
    expect(sheet.parentElement).toBe(document.body);
    expect(sheet.textContent).toContain('Wang Fang');
    expect(sheet.textContent).toContain(i18n.t('emergency.report.missing'));
    expect(sheet.textContent).not.toContain('****1234');
    act(() => window.dispatchEvent(new Event('afterprint')));
    await waitFor(() => expect(screen.queryByTestId('roll-call-sheet')).toBeNull());
  });

  it('shows the lockers and keys it released beside the egress doors, each with its device’s state', async () => {
    current = { active: true, scenario: { ...scenario, cabinetCount: 3, keyCount: 1 } };
    releasesNow = [
      { kind: 'door', deviceId: 'd1', name: 'Lobby exit', count: 1, online: true, state: 'done' },
      { kind: 'lockers', deviceId: 'c1', name: 'Locker bank B', count: 3, online: true, state: 'sent' },
      { kind: 'keys', deviceId: 'k1', name: 'Key cabinet 2F', count: 1, online: false, state: 'queued' },
    ];
    renderInConsole(<EmergencyAlarm />);
    const card = await screen.findByTestId('emergency-releases');
    expect(within(card).getByText(i18n.t('emergency.releases'))).toBeTruthy();
    const items = [...card.querySelectorAll('[data-release-kind]')].map((item) => [item.getAttribute('data-release-kind'), item.textContent]);
    expect(items).toEqual([
      ['door', expect.stringMatching(/Lobby exit.*Egress door.*Released/)],
      ['lockers', expect.stringMatching(/Locker bank B.*3 lockers.*Sent/)],
      ['keys', expect.stringMatching(/Key cabinet 2F.*1 key.*offline.*Waiting for the device/)],
    ]);
  });
});
