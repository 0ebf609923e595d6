import type { AuthItem, DeviceSyncStatusRow } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import SyncStatusPage from './sync-status.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const rows: DeviceSyncStatusRow[] = [
  { id: 'dev1', deviceName: 'Lobby controller', sn: 'SN-1', online: true, syncState: 'failed', syncPending: 0, syncReason: 'expired', syncAlignedTime: '2026-11-20 08:00:00' },
  { id: 'dev2', deviceName: 'Store room', sn: 'SN-2', online: false, syncState: 'pending', syncPending: 12, syncReason: null, syncAlignedTime: null },
  { id: 'dev3', deviceName: 'Back gate', sn: 'SN-3', online: true, syncState: 'inSync', syncPending: 0, syncReason: null, syncAlignedTime: '2026-11-25 09:30:00' },
];
let calls: Array<{ method: string; url: URL; body: unknown }>;

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  grant(['device:syncStatus:view', 'device:syncStatus:align']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/sysDevice/alignNow')) return Response.json(ok(null, 'The whole access list is queued'));
      if (url.pathname.endsWith('/sysDevice/syncStatus')) {
        const state = url.searchParams.get('syncState');
        const records = rows.filter((r) => !state || r.syncState === state);
        return Response.json(ok({ records, total: records.length, size: 20, current: 1, pages: 1 }));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('sync status page', () => {
  it('shows each device in sync, pending with its changes waiting, failed with the reason, and when it was last aligned', async () => {
    renderInConsole(<SyncStatusPage />);
    await screen.findByText('Lobby controller');
    expect(rowOf('Lobby controller').textContent).toContain(i18n.t('device.syncState.failed'));
    expect(rowOf('Lobby controller').textContent).toContain(i18n.t('syncStatus.reason.expired'));
    expect(rowOf('Store room').textContent).toContain(i18n.t('device.syncState.pending'));
    expect(rowOf('Store room').textContent).toContain(i18n.t('syncStatus.pendingCount', { count: 12 }));
    expect(rowOf('Store room').textContent).toContain(i18n.t('syncStatus.never'));
    expect(rowOf('Back gate').textContent).toContain(i18n.t('device.syncState.inSync'));
    expect(rowOf('Back gate').textContent).toContain('2026-11-25');
  });

  it('filters by state and by name, asking the server', async () => {
    renderInConsole(<SyncStatusPage />);
    await screen.findByText('Lobby controller');
    fireEvent.mouseDown(within(screen.getByTestId('sync-status')).getByRole('combobox', { name: i18n.t('device.field.syncState') }));
    fireEvent.click(await screen.findByTitle(i18n.t('device.syncState.pending')));
    await waitFor(() => expect(screen.queryByText('Lobby controller')).toBeNull());
    expect(screen.getByText('Store room')).toBeTruthy();
    expect(calls.at(-1)?.url.searchParams.get('syncState')).toBe('pending');

    const search = screen.getByPlaceholderText(i18n.t('syncStatus.searchDevice'));
    fireEvent.change(search, { target: { value: 'Store' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('deviceName')).toBe('Store'));
  });

  it('aligns a device now after asking, and offers it to holders of the permission only', async () => {
    const { unmount } = renderInConsole(<SyncStatusPage />);
    await screen.findByText('Store room');
    fireEvent.click(rowOf('Store room').querySelector('[data-command="alignNow"]')!);
    await screen.findByText(i18n.t('syncStatus.alignConfirmOffline', { name: 'Store room' }));
    expect(calls.some((c) => c.url.pathname.endsWith('/alignNow'))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('The whole access list is queued');
    expect(calls.find((c) => c.url.pathname.endsWith('/alignNow'))).toMatchObject({ method: 'POST', body: { id: 'dev2' } });
    unmount();

    grant(['device:syncStatus:view']);
    renderInConsole(<SyncStatusPage />);
    await screen.findByText('Store room');
    expect(document.querySelector('[data-command="alignNow"]')).toBeNull();
  });
});
