import { positionEntity } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { renderInConsole, signInHolding } from '../../test-providers.tsx';
import { CrudScreen } from './crud-screen.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const t = (key: string) => i18n.t(key);
const rows = [{ id: 'a', code: 'P-01', name: 'Clerk', postRank: '1', postRank_dictText: 'Staff', createTime: '2024-03-01T08:00:00.000Z' }];

let listUrls: URL[];

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  signInHolding(positionEntity);
  listUrls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sys/position/list')) {
        listUrls.push(url);
        return Response.json(ok({ records: rows, total: 1, size: 10, current: 1, pages: 1 }));
      }
      if (url.pathname.includes('/sys/dict/getDictItems/')) return Response.json(ok([]));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const button = (text: string) => screen.getByText(text).closest('button')!;
const lastList = () => listUrls[listUrls.length - 1]!;
const sent = () => ({ conditions: JSON.parse(lastList().searchParams.get('superQueryParams') ?? 'null') as unknown, matchType: lastList().searchParams.get('superQueryMatchType') });

/** Opens an antd select and picks the option showing `text`. */
async function pick(combobox: HTMLElement, text: string) {
  fireEvent.mouseDown(combobox);
  const options = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].filter((o) => o.textContent === text);
    expect(found).toHaveLength(1);
    return found;
  });
  fireEvent.click(options[0]!);
}

describe('the advanced query builder', () => {
  it('sends the conditions a person builds, joined by OR and then by AND', async () => {
    renderInConsole(<CrudScreen entity={positionEntity} />);
    await screen.findByText('P-01');
    expect(lastList().searchParams.has('superQueryParams')).toBe(false);

    fireEvent.click(button(t('crud.superQuery')));
    const modal = await screen.findByRole('dialog');
    fireEvent.click(within(modal).getByText(t('crud.superQueryAddCondition')));
    await waitFor(() => expect(within(modal).getAllByRole('combobox', { name: t('crud.superQueryField') })).toHaveLength(2));

    // the first condition: the code (the first field) equals P-01; the second: the name contains Boss
    const values = within(modal).getAllByLabelText(t('crud.superQueryValue'));
    fireEvent.change(values[0]!, { target: { value: 'P-01' } });
    await pick(within(modal).getAllByRole('combobox', { name: t('crud.superQueryField') })[1]!, t('position.field.name'));
    await pick(within(modal).getAllByRole('combobox', { name: t('crud.superQueryRule') })[1]!, t('crud.rule.like'));
    fireEvent.change(within(modal).getAllByLabelText(t('crud.superQueryValue'))[1]!, { target: { value: 'Boss' } });
    fireEvent.click(within(modal).getByText(t('crud.superQueryOr')));
    fireEvent.click(within(modal).getByText(t('crud.superQueryApply')).closest('button')!);

    const conditions = [
      { field: 'code', rule: 'eq', val: 'P-01' },
      { field: 'name', rule: 'like', val: 'Boss' },
    ];
    await waitFor(() => expect(sent()).toEqual({ conditions, matchType: 'or' }));
    expect(lastList().searchParams.get('pageNo')).toBe('1');
    expect(button(i18n.t('crud.superQueryActive', { count: 2 }))).toBeTruthy();

    // reopened, the builder holds the same conditions; switched to AND, the same conditions are sent joined by AND
    fireEvent.click(button(i18n.t('crud.superQueryActive', { count: 2 })));
    const again = await screen.findByRole('dialog');
    expect(within(again).getAllByLabelText(t('crud.superQueryValue')).map((input) => (input as HTMLInputElement).value)).toEqual(['P-01', 'Boss']);
    fireEvent.click(within(again).getByText(t('crud.superQueryAnd')));
    fireEvent.click(within(again).getByText(t('crud.superQueryApply')).closest('button')!);
    await waitFor(() => expect(sent()).toEqual({ conditions, matchType: 'and' }));
  });
});
