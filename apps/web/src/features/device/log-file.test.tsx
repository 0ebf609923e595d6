import { deviceLogFileEntity, type AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { DeviceEntityScreen } from './device-screen.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const stored = `logFile/20261125/${'c'.repeat(32)}_gate-01.txt`;

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

const requests: Array<{ path: string; body: string | null }> = [];

beforeEach(() => {
  requests.length = 0;
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], ['devices:logFile:list', 'devices:logFile:delete'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      requests.push({ path: new URL(input, 'http://console.test').pathname, body: typeof init?.body === 'string' ? init.body : null });
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sysDeviceLogFile/request')) return Response.json({ ...ok({ commandId: 'c1' }), message: 'The device was asked for its log file' });
      if (url.pathname.endsWith('/sysDevice/list')) return page([{ id: 'dev1', deviceName: 'Gate 1' }]);
      if (url.pathname.endsWith('/sysDeviceLogFile/list')) return page([{ id: 'lf1', deviceId: 'dev1', fileName: 'gate-01.txt', filePath: stored, fileSize: 2048, uploadTime: '2026-11-25 08:00:00' }]);
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('log file screen', () => {
  it('offers each log file for download through the stored files', async () => {
    renderInConsole(<DeviceEntityScreen entity={deviceLogFileEntity} />);
    const download = await waitFor(() => screen.getByRole('link', { name: /Download/ }));
    expect(download.getAttribute('href')).toContain(`/sys/common/static/${stored}`);
    expect(download.getAttribute('download')).toBe('gate-01.txt');
  });

  it('asks a chosen device for its log only with the permission', async () => {
    const { unmount } = renderInConsole(<DeviceEntityScreen entity={deviceLogFileEntity} />);
    await waitFor(() => screen.getByRole('link', { name: /Download/ }));
    expect(screen.queryByRole('button', { name: /Ask for log/ })).toBeNull();
    unmount();
    useSession.getState().setPermissions([], ['devices:logFile:list', 'devices:logFile:sendLog', 'device:device:list'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
    renderInConsole(<DeviceEntityScreen entity={deviceLogFileEntity} />);
    fireEvent.click(await screen.findByRole('button', { name: /Ask for log/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/uploads its log within 10 minutes/)).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Gate 1'));
    fireEvent.click(within(dialog).getByRole('button', { name: /Ask for log/ }));
    await waitFor(() => expect(requests.find((r) => r.path.endsWith('/sysDeviceLogFile/request'))?.body).toBe(JSON.stringify({ deviceId: 'dev1' })));
  });
});
