import type { AuthItem, StorageUserInfo } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { TEST_USER, renderInConsole } from '../../../test-providers.tsx';
import UserInfoPage from './user-info.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const people: StorageUserInfo[] = [
  { id: 'p1', name: 'Alice', userNo: 'U-001', departName: 'Front office', cabinets: ['Locker wall 1 #2', 'Locker wall 2 #7'], cabinetCount: 2, lastOpenTime: '2026-11-30 08:15:00' },
  { id: 'p2', name: 'Bob', userNo: null, departName: null, cabinets: [], cabinetCount: 0, lastOpenTime: null },
];
let reads: URL[];

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', TEST_USER);
  useSession.getState().setPermissions([], ['storage:userInfo:list'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  reads = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (!url.pathname.endsWith('/cabinet/userInfo/list')) return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
      reads.push(url);
      const name = url.searchParams.get('name');
      const records = people.filter((p) => !name || p.name.includes(name));
      // 25 people in all when nobody is searched for: the page has more pages
      const total = name ? records.length : 25;
      return Response.json(ok({ records, total, size: Number(url.searchParams.get('pageSize')), current: Number(url.searchParams.get('pageNo')), pages: Math.ceil(total / 10) }));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('storage user info', () => {
  it('lists each person with number, group, the cabinets held as tags, how many, and the last opening', async () => {
    renderInConsole(<UserInfoPage />);
    await screen.findByText('Alice');
    expect(screen.getByText(i18n.t('storageUserInfo.title'))).toBeTruthy();
    const alice = rowOf('Alice');
    expect(alice.textContent).toContain('U-001');
    expect(alice.textContent).toContain('Front office');
    expect(within(alice).getByText('Locker wall 1 #2').closest('.ant-tag')).toBeTruthy();
    expect(within(alice).getByText('Locker wall 2 #7').closest('.ant-tag')).toBeTruthy();
    expect(alice.textContent).toContain(formatTime('2026-11-30 08:15:00', 'datetime'));
    expect(rowOf('Bob').textContent).toContain(i18n.t('storageUserInfo.neverOpened'));
    expect(rowOf('Bob').querySelector('.ant-tag')).toBeNull();
  });

  it('searches by name and pages, asking the server', async () => {
    renderInConsole(<UserInfoPage />);
    await screen.findByText('Alice');
    expect(reads.at(-1)?.searchParams.get('pageNo')).toBe('1');
    fireEvent.click(document.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(reads.at(-1)?.searchParams.get('pageNo')).toBe('2'));

    const search = () => screen.getByPlaceholderText(i18n.t('storageUserInfo.searchName'));
    // a person lets go of Enter before pressing it again (the box takes one search per press)
    const pressEnter = () => {
      fireEvent.keyDown(search(), { key: 'Enter', code: 'Enter', keyCode: 13 });
      fireEvent.keyUp(search(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    };
    fireEvent.change(search(), { target: { value: ' Bob ' } });
    pressEnter();
    await waitFor(() => expect(reads.at(-1)?.searchParams.get('name')).toBe('Bob'));
    expect(reads.at(-1)?.searchParams.get('pageNo')).toBe('1');
    await waitFor(() => expect(screen.queryByText('Alice')).toBeNull());

    fireEvent.change(search(), { target: { value: 'Zoe' } });
    pressEnter();
    await waitFor(() => expect(reads.at(-1)?.searchParams.get('name')).toBe('Zoe'));
    await screen.findByText(i18n.t('storageUserInfo.noMatch'));
  });
});
