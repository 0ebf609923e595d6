import type { AuthItem, CabinetTreeNode } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../../test-providers.tsx';
import CabinetTreePage from './cabinet-tree.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const cabinet = (id: string, no: number, status: 0 | 1 | 2, holders: string[] = [], attribute = 2): CabinetTreeNode => ({
  key: id,
  id,
  title: `#${no}`,
  type: 'cabinet',
  cabinetNo: no,
  status,
  status_dictText: ['Unassigned', 'Assigned', 'Assignable'][status],
  attribute,
  holders,
});
const tree: CabinetTreeNode[] = [
  {
    key: 'area:a1',
    id: 'a1',
    title: 'North wing',
    type: 'area',
    children: [
      { key: 'device:d1', id: 'd1', title: 'Locker wall 1', type: 'device', online: true, syncMode: 'full', children: [cabinet('c1', 1, 0), cabinet('c2', 2, 1, ['Alice', 'Bob']), cabinet('c3', 3, 2, ['Carol'], 1)] },
    ],
  },
  { key: 'area:none', id: '', title: 'No area', type: 'area', children: [{ key: 'device:d2', id: 'd2', title: 'Locker wall 2', type: 'device', online: false, syncMode: 'increment', children: [] }] },
];

let answer: () => Response;
let calls: Array<{ method: string; url: URL; body: unknown }>;

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', TEST_USER);
  grant(['device:cabinet:list', 'device:cabinet:allocate']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  answer = () => Response.json(ok(tree));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/cabinet/cabinet/queryCabinetTree')) return answer();
      if (url.pathname.endsWith('/cabinet/allocation/linkOptions')) return Response.json(ok({ records: [{ value: 'p1', label: 'Alice' }, { value: 'p3', label: 'Dave' }], total: 2, size: 1000, current: 1, pages: 1 }));
      if (url.pathname.endsWith('/cabinet/cabinet/allocateCabinet')) return Response.json(ok(null, 'Allocation succeeded'));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const tile = (id: string) => document.querySelector<HTMLButtonElement>(`button[data-cabinet-id="${id}"]`)!;
const device = (id: string) => document.querySelector<HTMLElement>(`[data-device-id="${id}"]`)!;

describe('cabinet tree', () => {
  it('shows each area, its devices with presence and sync mode, and each cabinet as a button coloured by its state with its holders', async () => {
    renderInConsole(<CabinetTreePage />);
    await screen.findByText('Locker wall 1');
    expect(screen.getByText('North wing')).toBeTruthy();
    expect(screen.getByText('No area')).toBeTruthy();

    expect(tile('c1').dataset.status).toBe('unassigned');
    expect(tile('c1').textContent).toContain('Unassigned');
    expect(tile('c2').dataset.status).toBe('assigned');
    expect(tile('c2').textContent).toContain('Alice, Bob');
    expect(tile('c3').dataset.status).toBe('assignable');
    expect(tile('c3').textContent).toContain('Carol');
    // tiles are buttons: reached with Tab, pressed with Enter or Space
    expect(tile('c1').tagName).toBe('BUTTON');

    expect(within(device('d1')).getByText(i18n.t('cabinet.fullMode'))).toBeTruthy();
    expect(within(device('d1')).getByText(i18n.t('device.online'))).toBeTruthy();
    expect(within(device('d1')).getByText(i18n.t('cabinetTree.heldOf', { held: 1, total: 3 }))).toBeTruthy();
    expect(within(device('d2')).queryByText(i18n.t('cabinet.fullMode'))).toBeNull();
    expect(within(device('d2')).getByText(i18n.t('device.offline'))).toBeTruthy();
    expect(within(device('d2')).getByText(i18n.t('cabinetTree.noCabinets'))).toBeTruthy();
  });

  it('says so when there is no cabinet device, and offers to read again when the tree could not be read', async () => {
    answer = () => Response.json(ok([]));
    const { unmount } = renderInConsole(<CabinetTreePage />);
    await screen.findByText(i18n.t('cabinet.treeEmpty'));
    unmount();

    answer = () => Response.json({ success: false, message: 'boom', code: 500, result: null, timestamp: 1 }, { status: 500 });
    renderInConsole(<CabinetTreePage />);
    await screen.findByText(i18n.t('crud.loadFailed'));
    answer = () => Response.json(ok(tree));
    fireEvent.click(screen.getByRole('button', { name: i18n.t('common.retry') }));
    await screen.findByText('Locker wall 1');
  });

  it('allocates a cabinet from its tile, one person for a one-person cabinet, and reads the tree again', async () => {
    renderInConsole(<CabinetTreePage />);
    await screen.findByText('Locker wall 1');
    fireEvent.click(tile('c3'));
    const details = await screen.findByTestId('cabinet-details');
    expect(details.textContent).toContain('Carol');
    expect(details.textContent).toContain(i18n.t('cabinet.attribute.single'));
    fireEvent.click(within(details).getByRole('button', { name: i18n.t('cabinet.allocate') }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(i18n.t('cabinet.allocateTitle', { name: '3' }))).toBeTruthy();
    expect(within(dialog).getByText(i18n.t('cabinetAllocate.onePerson'))).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: i18n.t('cabinet.allocatePeople') }));
    const dave = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find((o) => o.textContent === 'Dave');
      expect(found).toBeTruthy();
      return found!;
    });
    fireEvent.click(dave);
    const reads = calls.filter((c) => c.url.pathname.endsWith('/queryCabinetTree')).length;
    fireEvent.click(within(dialog).getByRole('button', { name: i18n.t('cabinet.allocate') }));
    await screen.findByText('Allocation succeeded');
    expect(calls.find((c) => c.url.pathname.endsWith('/allocateCabinet'))).toMatchObject({ method: 'POST', body: { id: 'c3', peopleIds: ['p3'], expireTime: null } });
    await waitFor(() => expect(calls.filter((c) => c.url.pathname.endsWith('/queryCabinetTree')).length).toBeGreaterThan(reads));
  });

  it('shows a tile’s details without "Allocate" to those who may not allocate', async () => {
    grant(['device:cabinet:list']);
    renderInConsole(<CabinetTreePage />);
    await screen.findByText('Locker wall 1');
    fireEvent.click(tile('c2'));
    const details = await screen.findByTestId('cabinet-details');
    expect(details.textContent).toContain('Alice, Bob');
    expect(within(details).queryByRole('button', { name: i18n.t('cabinet.allocate') })).toBeNull();
  });
});
