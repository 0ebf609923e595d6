import { RealtimeCmd, field, type AuthItem, type EntityDeclaration } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../api/index.ts';
import { i18n } from '../i18n/index.ts';
import { emitAppEvent } from '../realtime/index.ts';
import { useSession } from '../session/index.ts';
import { TEST_USER, renderInConsole } from '../../test-providers.tsx';
import { CrudScreen } from './crud-screen.tsx';
import { RELOAD_ON_DELAY_MS } from './reload-on.ts';

/** A list that declares no real-time messages. */
const still: EntityDeclaration = {
  name: 'still',
  title: 'cabinetRecord.title',
  basePath: '/still',
  permissionPrefix: 'test:journal',
  component: 'test/journal',
  labelField: 'openTime',
  fields: { method: field.text('cabinetRecord.field.method', 16) },
  columns: ['method'],
  search: {},
  sortable: [],
  defaultSort: { field: 'createTime', order: 'desc' },
  actions: ['list'],
};
/** A list of records the devices add, as the opening records declare it: read again after a `cabinetRecord` message. */
const journal: EntityDeclaration = { ...still, name: 'journal', basePath: '/journal', reloadOn: [RealtimeCmd.cabinetRecord] };

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
let reads: URL[];
let records: number;

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', TEST_USER);
  useSession.getState().setPermissions([], ['test:journal:list'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  reads = [];
  records = 2;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (!url.pathname.endsWith('/list')) return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
      reads.push(url);
      const pageNo = Number(url.searchParams.get('pageNo'));
      const rows = Array.from({ length: records }, (_, i) => ({ id: `r${i}`, method: `entry ${i + 1}` })).slice((pageNo - 1) * 10, pageNo * 10);
      return Response.json(ok({ records: rows, total: records, size: 10, current: pageNo, pages: Math.ceil(records / 10) }));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, RELOAD_ON_DELAY_MS * 2)));

describe('a list declared to reload on real-time messages', () => {
  it('reads its page again once for a burst of the messages it names, and not for others', async () => {
    renderInConsole(<CrudScreen entity={journal} />);
    await screen.findByText('entry 2');
    const before = reads.length;
    records = 3;
    act(() => {
      emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.cabinetRecord, data: { ids: ['r2'] } });
      emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.cabinetRecord, data: { ids: ['r2'] } });
      emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.cabinetRecord, data: { ids: ['r2'] } });
    });
    // gathered: nothing is read at once
    expect(reads.length).toBe(before);
    await screen.findByText('entry 3');
    await settle();
    expect(reads.length).toBe(before + 1);

    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceConnect, data: { ids: ['d1'] } }));
    await settle();
    expect(reads.length).toBe(before + 1);

    // a socket that opened again may have missed some: the page is read again
    act(() => emitAppEvent('realtimeOpen', {}));
    await waitFor(() => expect(reads.length).toBe(before + 2));
  });

  it('reads the page on screen, with its number, and stops once the screen is closed', async () => {
    records = 12;
    const { unmount } = renderInConsole(<CrudScreen entity={journal} />);
    await screen.findByText('entry 1');
    fireEvent.click(document.querySelector('.ant-pagination-item-2')!);
    await screen.findByText('entry 11');
    const before = reads.length;
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.cabinetRecord }));
    await waitFor(() => expect(reads.length).toBe(before + 1));
    expect(reads.at(-1)?.searchParams.get('pageNo')).toBe('2');

    unmount();
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.cabinetRecord }));
    await settle();
    expect(reads.length).toBe(before + 1);
  });

  it('leaves a list that declares no such messages alone', async () => {
    renderInConsole(<CrudScreen entity={still} />);
    await screen.findByText('entry 2');
    const before = reads.length;
    act(() => {
      emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.cabinetRecord });
      emitAppEvent('realtimeOpen', {});
    });
    await settle();
    expect(reads.length).toBe(before);
  });
});
