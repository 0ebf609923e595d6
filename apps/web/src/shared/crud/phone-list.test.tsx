import { positionEntity } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { renderInConsole, signInHolding } from '../../test-providers.tsx';
import { CrudScreen } from './crud-screen.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);

const rows = [
  { id: 'a', code: 'P-01', name: 'Clerk', postRank: '1', postRank_dictText: 'Staff', createTime: '2024-03-01T08:00:00.000Z' },
  { id: 'b', code: 'P-02', name: 'Boss', postRank: '3', postRank_dictText: 'Manager', createTime: '2024-03-02T08:00:00.000Z' },
];
let pages: number[];
const desktopWidth = window.innerWidth;
const setWidth = (value: number) => Object.defineProperty(window, 'innerWidth', { value, configurable: true });

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});
afterAll(() => setWidth(desktopWidth));

beforeEach(() => {
  localStorage.clear();
  signInHolding(positionEntity);
  pages = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sys/position/list')) {
        pages.push(Number(url.searchParams.get('pageNo')));
        return Response.json(ok({ records: rows, total: 23, size: 10, current: Number(url.searchParams.get('pageNo')), pages: 3 }));
      }
      if (url.pathname.includes('/sys/dict/getDictItems/post_rank')) return Response.json(ok([{ value: '1', text: 'Staff' }, { value: '3', text: 'Manager' }]));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  setWidth(desktopWidth);
});

/** The toolbar: the row of buttons above the list. */
const toolbarButtons = () => within(screen.getByRole('toolbar')).getAllByRole('button');

describe('a list on a phone (375 px)', () => {
  it('shows each row as a card of label: value lines with its actions, and no table', async () => {
    setWidth(375);
    renderInConsole(<CrudScreen entity={positionEntity} />);
    const cards = await screen.findByTestId('crud-cards');
    expect(document.querySelector('table')).toBeNull();
    const items = await within(cards).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    const boss = items[1]!;
    // label: value lines, a dictionary value by its text
    const rank = within(boss).getByText(t('position.field.postRank'));
    expect(rank.tagName).toBe('DT');
    expect(rank.nextElementSibling?.textContent).toBe('Manager');
    expect(within(boss).getByText('Boss')).toBeTruthy();
    // the row's actions are on its card, and they act on that row
    fireEvent.click(within(boss).getByRole('button', { name: t('crud.edit') }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect((within(screen.getByRole('dialog')).getByDisplayValue('Boss') as HTMLInputElement).value).toBe('Boss');
  });

  it('pages through the server from under the cards', async () => {
    setWidth(375);
    renderInConsole(<CrudScreen entity={positionEntity} />);
    await screen.findByText('Boss');
    fireEvent.click(document.querySelector('.ant-pagination-next')!);
    await waitFor(() => expect(pages.at(-1)).toBe(2));
  });

  it('folds the toolbar into the main action and one More menu holding the others, which still work', async () => {
    setWidth(375);
    renderInConsole(<CrudScreen entity={positionEntity} />);
    await screen.findByTestId('crud-cards');
    const shown = toolbarButtons().map((b) => b.textContent);
    expect(shown).toEqual([t('crud.add'), t('crud.more')]);
    expect(screen.queryByRole('button', { name: t('crud.export') })).toBeNull();
    const more = screen.getByRole('button', { name: new RegExp(t('crud.more')) });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    const menu = await screen.findByRole('group', { name: t('crud.moreActions') });
    for (const key of ['crud.batchDelete', 'crud.export', 'crud.superQuery']) expect(within(menu).getByText(t(key))).toBeTruthy();
    // a folded button does what it does in the row: the advanced query opens its dialog
    fireEvent.click(within(menu).getByText(t('crud.superQuery')).closest('button')!);
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('keeps the table and the whole toolbar on a desktop', async () => {
    renderInConsole(<CrudScreen entity={positionEntity} />);
    await screen.findByText('Boss');
    expect(document.querySelector('table')).not.toBeNull();
    expect(screen.queryByTestId('crud-cards')).toBeNull();
    expect(screen.queryByRole('button', { name: new RegExp(`^${t('crud.more')}`) })).toBeNull();
    expect(screen.getByText(t('crud.export'))).toBeTruthy();
  });
});
