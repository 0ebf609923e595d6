import { DoorState, type AuthItem, type DoorStatusRow } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { emitAppEvent } from '../../../shared/realtime/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import DoorStatusPage, { applyDoorStates } from './door-status.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const door = (id: string, doorName: string, deviceId: string, state: DoorState, deviceOnline = true): DoorStatusRow => ({
  id,
  doorName,
  doorNo: 1,
  deviceId,
  deviceName: `Controller ${deviceId}`,
  deviceOnline,
  areaId: null,
  state,
  stateTime: '2026-11-25 08:00:00',
});
let doors: DoorStatusRow[];
let reads: number;
let posts: Array<{ path: string; method: string; body: unknown }>;

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], [{ action: 'device:doorStatus:view', describe: '', type: '1' } satisfies AuthItem], []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  reads = 0;
  posts = [];
  doors = [door('d1', 'Front gate', 'dev1', DoorState.closed), door('d2', 'Store room', 'dev2', DoorState.closed, false)];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      posts.push({ path: url.pathname, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/sysDoor/open')) return Response.json({ ...ok({ commandId: 'cmd1' }), message: 'Open command queued' });
      if (url.pathname.endsWith('/sysDoor/command')) return Response.json(ok({ id: 'cmd1', kind: 'openDoor', status: 'sent', attempts: 1, sentTime: null, ackedTime: null, result: null }));
      if (url.pathname.endsWith('/sysDoor/status')) {
        reads++;
        return Response.json(ok(doors));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const card = (name: string) => screen.getByText(name).closest('[data-door-id]') as HTMLElement;

describe('door status page', () => {
  it('shows each door with its state and its device’s presence, and changes them from the real-time channel without reading the list again', async () => {
    renderInConsole(<DoorStatusPage />);
    expect(screen.getByTestId('door-status-loading')).toBeTruthy();
    await screen.findByText('Front gate');
    expect(card('Front gate').dataset.state).toBe('closed');
    expect(card('Front gate').textContent).toContain('Online');
    expect(card('Store room').textContent).toContain('Offline');

    act(() => emitAppEvent('doorState', { data: { doors: [{ id: 'd1', doorName: 'Front gate', deviceId: 'dev1', state: DoorState.open, stateTime: '2026-11-25 09:00:00' }] } }));
    await waitFor(() => expect(card('Front gate').dataset.state).toBe('open'));
    expect(card('Front gate').textContent).toContain('Open');
    // an older report does not undo a newer one
    act(() => emitAppEvent('doorState', { data: { doors: [{ id: 'd1', doorName: 'Front gate', deviceId: 'dev1', state: DoorState.closed, stateTime: '2026-11-25 08:30:00' }] } }));
    act(() => emitAppEvent('deviceConnection', { connected: true, data: { count: 1, ids: ['dev2'], devices: [{ id: 'dev2', sn: 'S2', name: 'Controller dev2' }] } }));
    await waitFor(() => expect(card('Store room').textContent).toContain('Online'));
    expect(card('Front gate').dataset.state).toBe('open');
    expect(screen.getByTestId('door-count-open').textContent).toContain('1');
    expect(reads).toBe(1);

    // a door the page does not have yet: the list is read again
    doors = [...doors, door('d3', 'Back door', 'dev1', DoorState.alarm)];
    act(() => emitAppEvent('doorState', { data: { doors: [{ id: 'd3', doorName: 'Back door', deviceId: 'dev1', state: DoorState.alarm, stateTime: '2026-11-25 09:01:00' }] } }));
    await screen.findByText('Back door');
    expect(card('Back door').dataset.state).toBe('alarm');
    expect(reads).toBe(2);
  });

  it('says so when there are no doors', async () => {
    doors = [];
    renderInConsole(<DoorStatusPage />);
    await screen.findByText(i18n.t('doorStatus.empty'));
  });

  it('keeps a door that holds a later state', () => {
    const list = [door('d1', 'Front gate', 'dev1', DoorState.open)];
    expect(applyDoorStates(list, { doors: [{ id: 'd1', doorName: 'Front gate', deviceId: 'dev1', state: DoorState.closed, stateTime: '2026-11-25 07:00:00' }] })).toEqual(list);
    expect(applyDoorStates(list, { doors: [{ id: 'x', doorName: 'X', deviceId: 'dev1', state: DoorState.closed, stateTime: '2026-11-25 07:00:00' }] })).toBeNull();
  });

  it('links each door to its details on the doors screen and opens it remotely after asking, with the permissions only', async () => {
    useSession.getState().setPermissions([], ['device:doorStatus:view', 'device:door:list', 'device:door:open'].map((action): AuthItem => ({ action, describe: '', type: '1' })), []);
    renderInConsole(
      <MemoryRouter>
        <DoorStatusPage />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: 'Front gate' });
    expect(link.getAttribute('href')).toBe('/device/door?id=d1');
    // the offline device's door offers no opening (it would be refused)
    const cards = document.querySelectorAll('[data-door-id]');
    expect(cards[0]!.querySelector('[data-command="open"]')).not.toBeNull();
    expect(cards[1]!.querySelector('[data-command="open"]')).toBeNull();

    fireEvent.click(cards[0]!.querySelector('[data-command="open"]')!);
    await screen.findByText(i18n.t('door.openConfirm', { name: 'Front gate' }));
    expect(posts.some((p) => p.path.endsWith('/sysDoor/open'))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await waitFor(() => expect(posts.find((p) => p.path.endsWith('/sysDoor/open'))).toMatchObject({ method: 'POST', body: { id: 'd1' } }));
  });

  it('offers neither the link nor the opening without their permissions', async () => {
    renderInConsole(
      <MemoryRouter>
        <DoorStatusPage />
      </MemoryRouter>,
    );
    await screen.findByText('Front gate');
    expect(screen.queryByRole('link', { name: 'Front gate' })).toBeNull();
    expect(document.querySelector('[data-command="open"]')).toBeNull();
  });
});
