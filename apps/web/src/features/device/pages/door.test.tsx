import type { AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import DoorPage from './door.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
let calls: Array<{ method: string; url: URL; body: unknown }>;
let commandStatus: string;

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  grant(['device:door:list', 'device:door:open']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  commandStatus = 'sent';
  const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/sysDoor/queryById')) return Response.json(ok({ id: 'door1', doorName: 'Front gate', deviceId: 'dev1', deviceId_dictText: 'Lobby controller', doorNo: 1, areaId: 'area1', areaId_dictText: 'Lobby', state: 0, stateTime: null, departIds: '', departIds_dictText: '' }));
      if (url.pathname.endsWith('/sysDoor/list')) return page([{ id: 'door1', doorName: 'Front gate', deviceId: 'dev1', doorNo: 1, areaId: 'area1', state: 0, stateTime: null, departIds: '', departIds_dictText: '' }]);
      if (url.pathname.endsWith('/sysDevice/list')) return page([{ id: 'dev1', deviceName: 'Lobby controller' }]);
      if (url.pathname.endsWith('/sysArea/list')) return page([{ id: 'area1', areaName: 'Lobby' }]);
      if (url.pathname.endsWith('/queryTreeList')) return Response.json(ok([]));
      if (url.pathname.endsWith('/sysDoor/open')) return Response.json(ok({ commandId: 'cmd1' }, 'Open command queued'));
      if (url.pathname.endsWith('/sysDoor/command')) return Response.json(ok({ id: 'cmd1', kind: 'openDoor', status: commandStatus, attempts: 1, sentTime: null, ackedTime: null, result: null }));
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const row = (name: string) => screen.getByText(name).closest('tr')!;

describe('doors screen', () => {
  it('names each door’s device and area, and opens a door after asking: sent, then the device’s acknowledgement', async () => {
    renderInConsole(
      <MemoryRouter>
        <DoorPage />
      </MemoryRouter>,
    );
    await screen.findByText('Front gate');
    await waitFor(() => expect(row('Front gate').textContent).toContain('Lobby controller'));
    expect(row('Front gate').textContent).toContain('Lobby');
    expect(row('Front gate').textContent).not.toContain('dev1');

    fireEvent.click(row('Front gate').querySelector('[data-command="open"]')!);
    await screen.findByText(i18n.t('door.openConfirm', { name: 'Front gate' }));
    expect(calls.some((c) => c.url.pathname.endsWith('/sysDoor/open'))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('Open command queued');
    expect(calls.find((c) => c.url.pathname.endsWith('/sysDoor/open'))).toMatchObject({ method: 'POST', body: { id: 'door1' } });
    await waitFor(() => expect(screen.getByTestId('door-command-status').dataset.status).toBe('sent'));
    expect(screen.getByTestId('door-command-status').textContent).toBe(i18n.t('door.command.sent'));

    commandStatus = 'acked';
    await waitFor(() => expect(screen.getByTestId('door-command-status').dataset.status).toBe('acked'), { timeout: 3000 });
    const asked = calls.filter((c) => c.url.pathname.endsWith('/sysDoor/command')).length;
    expect(calls.find((c) => c.url.pathname.endsWith('/sysDoor/command'))?.url.searchParams.get('id')).toBe('cmd1');
    // settled: no more asking
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls.filter((c) => c.url.pathname.endsWith('/sysDoor/command')).length).toBe(asked);
  });

  it('offers no remote opening without device:door:open', async () => {
    grant(['device:door:list']);
    renderInConsole(
      <MemoryRouter>
        <DoorPage />
      </MemoryRouter>,
    );
    await screen.findByText('Front gate');
    expect(document.querySelector('[data-command="open"]')).toBeNull();
  });

  it('opens the details of the door a door status card links to (?id=)', async () => {
    renderInConsole(
      <MemoryRouter initialEntries={['/device/door?id=door1']}>
        <DoorPage />
      </MemoryRouter>,
    );
    const drawer = await screen.findByRole('dialog');
    await waitFor(() => expect(drawer.textContent).toContain('Lobby controller'));
    expect(drawer.textContent).toContain('Front gate');
    expect(drawer.textContent).not.toContain('dev1');
    expect(calls.find((c) => c.url.pathname.endsWith('/sysDoor/queryById'))?.url.searchParams.get('id')).toBe('door1');
  });
});
