import { LANGUAGES, dictItemEntity } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CrudScreen } from '../../shared/crud/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { renderInConsole, signInHolding } from '../../test-providers.tsx';
import { SystemEntityScreen } from './entity-screen.tsx';
import { extensionOf } from './extensions.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);

// the dictionary names as the server answers them in the reader's language
const dictNames: Record<string, string> = { 'zh-CN': '性别', 'en-US': 'Gender', 'ja-JP': '性別' };
const item = { id: 'i1', dictId: 'd-sex', itemText: 'Male', itemValue: '1', description: null, sortOrder: 1, status: 1, status_dictText: 'Valid' };

beforeEach(() => {
  localStorage.clear();
  signInHolding(dictItemEntity);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sys/dictItem/list')) return Response.json(ok({ records: [{ ...item, dictId_dictText: dictNames[i18n.language] }], total: 1, size: 10, current: 1, pages: 1 }));
      if (url.pathname.endsWith('/sys/dict/list')) {
        const records = [
          { id: 'd-sex', dictName: dictNames[i18n.language] ?? 'Gender', dictCode: 'sex' },
          { id: 'd-status', dictName: 'Status', dictCode: 'valid_status' },
        ];
        return Response.json(ok({ records, total: 2, size: 1000, current: 1, pages: 1 }));
      }
      // the search's dictionary picker, for one who may add or edit items: the choices of the items form
      if (url.pathname.endsWith('/sys/dictItem/linkOptions')) {
        const records = [
          { value: 'd-sex', label: dictNames[i18n.language] ?? 'Gender' },
          { value: 'd-status', label: 'Status' },
        ];
        return Response.json(ok({ records, total: 2, size: 1000, current: 1, pages: 1 }));
      }
      if (url.pathname.includes('/sys/dict/getDictItems/')) return Response.json(ok([{ value: '1', text: 'Valid', label: 'Valid', title: 'Valid' }]));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

/** The title of the list's card (the search form has its own card, without a title). */
const cardTitle = () => document.querySelector<HTMLElement>('.ant-card-head-title')?.textContent ?? '';

describe('the dictionary items screen names its dictionary', { timeout: 60_000 }, () => {
  it.each(LANGUAGES)('opened from the menu: items of every dictionary, then of the dictionary searched by (%s)', async (lang) => {
    await i18n.changeLanguage(lang);
    renderInConsole(<SystemEntityScreen entity={dictItemEntity} />);
    await screen.findByText('Male');
    expect(cardTitle()).toBe(t('system.dict.itemsOfEvery'));

    const search = screen.getByRole('search');
    const dictionary = within(search).getByRole('combobox', { name: t(dictItemEntity.fields.dictId?.label ?? '') });
    fireEvent.mouseDown(dictionary);
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].filter((o) => o.textContent === dictNames[lang]);
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    fireEvent.click(option);
    fireEvent.click(within(search).getByText(t('crud.search')).closest('button')!);
    await waitFor(() => expect(cardTitle()).toBe(t('system.dict.itemsTitle', { name: dictNames[lang] })));

    // reset: every dictionary again
    fireEvent.click(within(search).getByText(t('crud.reset')).closest('button')!);
    await waitFor(() => expect(cardTitle()).toBe(t('system.dict.itemsOfEvery')));
  });

  it.each(LANGUAGES)('opened from the menu, each item names its dictionary in a column of its own (%s)', async (lang) => {
    await i18n.changeLanguage(lang);
    renderInConsole(<SystemEntityScreen entity={dictItemEntity} />);
    const cell = (await screen.findByText('Male')).closest('tr')!;
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    const column = headers.indexOf(t(dictItemEntity.fields.dictId?.label ?? ''));
    expect(column).toBeGreaterThanOrEqual(0);
    expect(cell.querySelectorAll('td')[column]?.textContent).toBe(dictNames[lang]);
  });

  it('fixed to one dictionary, as a page of its own: Items of Gender', async () => {
    await i18n.changeLanguage('en-US');
    renderInConsole(<CrudScreen entity={dictItemEntity} extension={extensionOf(dictItemEntity)} fixed={{ dictId: 'd-sex' }} />);
    await screen.findByText('Male');
    await waitFor(() => expect(cardTitle()).toBe('Items of Gender'));
  });
});
