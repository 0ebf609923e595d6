import { fileStorageEntity, type AuthItem } from '@isps/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { MessageEntityScreen } from './file-storage-screen.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const stored = `temp/20261125/${'d'.repeat(32)}_floor_plan.pdf`;

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], ['message:fileStorage:list', 'message:fileStorage:delete'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sys/oss/file/list')) return page([{ id: 'f1', fileName: 'floor plan.pdf', url: stored, fileType: 'pdf', fileSize: 4096, createBy: 'alice', createTime: '2026-11-25 08:00:00' }]);
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('file storage screen', () => {
  it('lists stored files with their name, type, size and uploader, each downloadable under its uploaded name', async () => {
    renderInConsole(<MessageEntityScreen entity={fileStorageEntity} />);
    const download = await waitFor(() => screen.getByRole('link', { name: /Download/ }));
    expect(download.getAttribute('href')).toContain(`/sys/common/static/${stored}`);
    expect(download.getAttribute('download')).toBe('floor plan.pdf');
    expect(screen.getAllByText('floor plan.pdf').length).toBeGreaterThan(0);
    expect(screen.getAllByText('alice').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('columnheader', { name: /File name/ }).length).toBeGreaterThan(0);
  });
});
