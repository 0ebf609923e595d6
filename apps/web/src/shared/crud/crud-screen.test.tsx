import { entityPermissionCodes, positionEntity, type AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../api/index.ts';
import { i18n } from '../i18n/index.ts';
import { useSession } from '../session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { CrudScreen } from './crud-screen.tsx';

const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);

const rows = [
  { id: 'a', code: 'P-01', name: 'Clerk', postRank: '1', postRank_dictText: 'Staff', createTime: '2024-03-01T08:00:00.000Z' },
  { id: 'b', code: 'P-02', name: 'Head of the northern gate security team', postRank: '3', postRank_dictText: 'Manager', createTime: '2024-03-02T08:00:00.000Z' },
];

let listUrls: URL[];
let failList: boolean;
let listTotal: number;

function grant(codes: string[]) {
  const auth: AuthItem[] = codes.map((action) => ({ action, describe: action, type: '1' }));
  useSession.getState().setPermissions([], auth, []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', userInfo);
  grant(entityPermissionCodes(positionEntity));
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  listUrls = [];
  failList = false;
  listTotal = 23;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sys/position/list')) {
        listUrls.push(url);
        if (failList) return Response.json({ success: false, message: 'boom', code: 500, result: null, timestamp: 1 }, { status: 500 });
        return Response.json(ok({ records: rows, total: listTotal, size: 10, current: Number(url.searchParams.get('pageNo')), pages: 3 }));
      }
      if (url.pathname.endsWith('/sys/position/delete')) return Response.json({ success: false, message: 'A person still holds this position', code: 500, result: null, timestamp: 1 });
      if (url.pathname.includes('/sys/dict/getDictItems/post_rank')) {
        return Response.json(ok([{ value: '1', text: 'Staff', label: 'Staff', title: 'Staff' }, { value: '3', text: 'Manager', label: 'Manager', title: 'Manager' }]));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderScreen() {
  renderInConsole(<CrudScreen entity={positionEntity} />);
}

const button = (text: string) => screen.getByText(text).closest('button')!;
const lastList = () => listUrls[listUrls.length - 1]!;

describe('the generic list page of a declaration', () => {
  it('shows the declared columns with translated labels, dictionary texts and the server total', async () => {
    renderScreen();
    await screen.findByText('P-01');
    const table = document.querySelector('table')!;
    for (const name of positionEntity.columns) expect(within(table).getAllByText(t(positionEntity.fields[name]?.label ?? `crud.field.${name}`)).length).toBeGreaterThan(0);
    expect(within(table).getByText('Manager')).toBeTruthy();
    expect(screen.getByText(t('crud.total', { total: 23 }))).toBeTruthy();
    expect(lastList().searchParams.get('pageNo')).toBe('1');
    expect(lastList().searchParams.get('pageSize')).toBe('10');
    for (const key of ['crud.add', 'crud.batchDelete', 'crud.export', 'crud.import', 'crud.superQuery']) expect(button(t(key))).toBeTruthy();
  });

  it('cuts a long text cell at 25 characters with an ellipsis, the whole text on hover, and separates the thousands of the total (SPEC section 9)', async () => {
    listTotal = 12_345;
    renderScreen();
    const cut = await screen.findByText('Head of the northern gate...');
    expect(cut.getAttribute('title')).toBe('Head of the northern gate security team');
    expect(screen.queryByText('Head of the northern gate security team')).toBeNull();
    // a short one stays as it is
    expect(screen.getByText('Clerk').getAttribute('title')).toBeNull();
    expect(screen.getByText('12,345 records in total')).toBeTruthy();
  });

  it('searches by a searchable field, sorts by a column and pages through the server', async () => {
    renderScreen();
    await screen.findByText('P-01');
    fireEvent.change(within(document.querySelector<HTMLElement>('form[role=search]')!).getByLabelText(t('position.field.code')), { target: { value: 'P-0' } });
    fireEvent.click(button(t('crud.search')));
    await waitFor(() => expect(lastList().searchParams.get('code')).toBe('P-0'));

    fireEvent.click(within(document.querySelector('table')!).getAllByText(t('position.field.name'))[0]!);
    await waitFor(() => expect(lastList().searchParams.get('column')).toBe('name'));
    expect(lastList().searchParams.get('order')).toBe('asc');
    expect(lastList().searchParams.get('code')).toBe('P-0');

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastList().searchParams.get('pageNo')).toBe('2'));
  });

  it('asks the server again when the same search is made again', async () => {
    renderScreen();
    await screen.findByText('P-01');
    const calls = listUrls.length;
    fireEvent.click(button(t('crud.search')));
    await waitFor(() => expect(listUrls.length).toBe(calls + 1));
    expect(lastList().searchParams.get('pageNo')).toBe('1');
  });

  it('demands a selection before a batch delete', async () => {
    renderScreen();
    await screen.findByText('P-01');
    fireEvent.click(button(t('crud.batchDelete')));
    expect(await screen.findByText(t('crud.selectRecord'))).toBeTruthy();
  });

  it("says 'Delete failed!' with the server's reason when a delete is refused", async () => {
    renderScreen();
    await screen.findByText('P-01');
    const row = screen.getByText('P-01').closest('tr')!;
    fireEvent.click(within(row).getByText(t('crud.delete')));
    fireEvent.click(await screen.findByRole('button', { name: t('common.ok') }));
    expect(await screen.findByText('Delete failed! A person still holds this position')).toBeTruthy();
  });

  it('shows only the buttons the user holds', async () => {
    grant([`${positionEntity.permissionPrefix}:list`]);
    renderScreen();
    await screen.findByText('P-01');
    expect(screen.queryByText(t('crud.add'))).toBeNull();
    expect(screen.queryByText(t('crud.export'))).toBeNull();
    expect(screen.queryByText(t('crud.edit'))).toBeNull();
    expect(screen.getAllByText(t('crud.detail')).length).toBe(2);
  });

  it('opens the form from the declaration and validates with the shared schema before sending', async () => {
    renderScreen();
    await screen.findByText('P-01');
    fireEvent.click(button(t('crud.add')));
    await screen.findByText(t('crud.addTitle', { entity: t(positionEntity.title) }));
    const dialog = document.querySelector<HTMLElement>('.ant-modal')!;
    fireEvent.change(within(dialog).getByLabelText(t('position.field.code')), { target: { value: '职务' } });
    fireEvent.click(within(dialog).getByText(t('crud.save')).closest('button')!);
    expect(await within(dialog).findByText(`${t('position.field.code')} cannot contain Chinese characters`)).toBeTruthy();
    expect(await within(dialog).findByText(`${t('position.field.name')} is required`)).toBeTruthy();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    failList = true;
    renderScreen();
    expect(await screen.findByText(t('crud.loadFailed'))).toBeTruthy();
    failList = false;
    fireEvent.click(button(t('common.retry')));
    expect(await screen.findByText('P-01')).toBeTruthy();
  });
});
