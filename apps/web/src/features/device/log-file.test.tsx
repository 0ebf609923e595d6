import { deviceLogFileEntity, type AuthItem } from '@isps/contract';
import { screen, waitFor } from '@testing-library/react';
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

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], ['devices:logFile:list', 'devices:logFile:delete'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
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
});
