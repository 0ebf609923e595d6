import { IdType, LANGUAGES, crudPath, deviceRoleEntity, entityLabel, maskCardNo, peopleEntity, translate, userEntity, visitorEntity, type EntityDeclaration, type Language, type MessageKey } from '@isps/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { readIn, renderInConsole } from '../../test-providers.tsx';
import { EntityFormModal } from './entity-form-modal.tsx';

const envelope = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 1 });
const NUMBER = 'E12345678';
let asked: string[];

beforeEach(() => {
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      if (url.includes('/sysVistor/queryById')) return Response.json(envelope({ id: 'v1', name: 'Guest', idType: IdType.passport, idCard: NUMBER, phone: '13700000001', category: 'general' }));
      if (url.includes('/id_type')) return Response.json(envelope([{ value: '1', text: '居民身份证', label: '居民身份证', title: '居民身份证' }, { value: '2', text: '护照', label: '护照', title: '护照' }, { value: '3', text: '其他', label: '其他', title: '其他' }]));
      if (url.includes('getDictItems') || url.includes('/sys/dict')) return Response.json(envelope([]));
      // the visitor form's group picker reads the group tree (visitors have a group since they pass doors)
      if (url.includes('/sysDepart/')) return Response.json(envelope([]));
      return Response.json(envelope({}));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the edit form of a screen whose lists mask a value', () => {
  it('starts from the stored row, read whole, not from the masked list row', async () => {
    const listed = { id: 'v1', name: 'Guest', idType: IdType.passport, idCard: maskCardNo(NUMBER), phone: '13700000001', category: 'general' };
    renderInConsole(<EntityFormModal entity={visitorEntity} mode="edit" row={listed} onClose={() => undefined} />);
    await waitFor(() => expect((screen.getByRole('textbox', { name: '证件号码' }) as HTMLInputElement).value).toBe(NUMBER));
    expect(asked.some((url) => url.includes('/sysVistor/queryById') && url.includes('id=v1'))).toBe(true);
  });
});

describe('the ID number of a form', () => {
  it('is checked against the ID type chosen: a passport number is refused as a resident ID card and taken as a passport', async () => {
    const { fireEvent, act } = await import('@testing-library/react');
    renderInConsole(<EntityFormModal entity={visitorEntity} mode="add" row={null} onClose={() => undefined} />);
    const number = await screen.findByRole('textbox', { name: '证件号码' });
    fireEvent.change(number, { target: { value: 'E12345678' } });
    expect(await screen.findByText('证件号码：请输入合法的身份证号')).toBeTruthy();
    // the type changes: the number is checked again
    await act(async () => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: '证件类型' }));
    });
    await act(async () => {
      fireEvent.click(await screen.findByText('护照'));
    });
    await waitFor(() => expect(screen.queryByText('证件号码：请输入合法的身份证号')).toBeNull());
    fireEvent.change(number, { target: { value: 'E1-2' } });
    expect(await screen.findByText('证件号码：护照号码为 5 至 20 位字母或数字')).toBeTruthy();
  });
});

describe('the users picker of the device role form', () => {
  it('reads its choices through the form\'s own linkOptions, not the user list a device administrator may not read', async () => {
    const pickerPath = crudPath(deviceRoleEntity, 'linkOptions');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        asked.push(input);
        const url = new URL(input, 'http://console.test');
        if (url.pathname.endsWith(pickerPath) && url.searchParams.get('field') === 'userIds') {
          const records = [{ value: 'u1', label: 'keeper' }, { value: 'u2', label: 'colleague' }];
          return Response.json(envelope({ records, total: 2, size: 1000, current: 1, pages: 1 }));
        }
        if (url.pathname.endsWith(pickerPath)) return Response.json(envelope({ records: [], total: 0, size: 1000, current: 1, pages: 0 }));
        if (url.pathname.includes('/sys/dict')) return Response.json(envelope([]));
        if (url.pathname.endsWith(crudPath(userEntity, 'list'))) return Response.json({ success: false, code: 510, message: 'forbidden', result: null, timestamp: 1 }, { status: 403 });
        return Response.json(envelope(null));
      }),
    );
    renderInConsole(<EntityFormModal entity={deviceRoleEntity} mode="add" row={null} onClose={() => undefined} />);
    const users = await screen.findByRole('combobox', { name: '用户' });
    await waitFor(() => expect(asked.some((url) => url.includes(pickerPath) && url.includes('field=userIds'))).toBe(true));
    await act(async () => {
      fireEvent.mouseDown(users);
    });
    await waitFor(() => {
      const dropdown = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      expect(dropdown).not.toBeNull();
      expect(within(dropdown!).getAllByRole('option').length).toBeGreaterThan(0);
      const texts = [...dropdown!.querySelectorAll<HTMLElement>('.ant-select-item-option')].map((o) => o.textContent);
      expect(texts).toEqual(['keeper', 'colleague']);
    });
    expect(asked.some((url) => url.includes(crudPath(userEntity, 'list')))).toBe(false);
  });
});

/** A legal 18-character ID card number (GB 11643 check character). */
const ID_CARD = '110105199003073015';
/**
 * The people and visitor forms: the ID card's check character and the 6 to 8 digit password are checked before
 * anything is sent, and a value someone holds is refused by the server; both in the reader's language.
 */
const RULES: Array<{ entity: EntityDeclaration; filled: Record<string, string>; weak: string; refusal: MessageKey }> = [
  { entity: peopleEntity, filled: { name: 'Nova', cardNo: '66001234' }, weak: '12345', refusal: 'duplicate.cardNo' },
  { entity: visitorEntity, filled: { name: 'Zhao Lei', phone: '13911112222' }, weak: 'abc', refusal: 'duplicate.idCard' },
];

describe.each(LANGUAGES)('the people and visitor forms in %s', (lang: Language) => {
  let sent: Array<{ url: string; body: Record<string, unknown>; lang: string | null }>;
  beforeEach(async () => {
    await readIn(lang);
    sent = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        if (init?.method !== 'POST') return Response.json(envelope([]));
        const asked = new Headers(init.headers).get('lang') as Language;
        sent.push({ url: input, body: JSON.parse(String(init.body)) as Record<string, unknown>, lang: asked });
        const refusal = RULES.find(({ entity }) => input.includes(crudPath(entity, 'add')))!.refusal;
        // the server's answer to a value someone holds, in the language the request names
        return Response.json({ success: false, code: 500, message: translate(asked, refusal), result: null, timestamp: 1 });
      }),
    );
  });
  afterAll(async () => {
    localStorage.clear();
    await i18n.changeLanguage('zh-CN');
  });

  it.each(RULES.map((rule) => [rule.entity.name, rule] as const))('%s: checks the ID card and the password before sending, and shows the server’s refusal', async (name, { entity, filled, weak, refusal }) => {
    const label = (field: string) => entityLabel(lang, `${name}.field.${field}`);
    renderInConsole(<EntityFormModal entity={entity} mode="add" row={null} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    const input = (field: string) => within(dialog).getByLabelText(label(field), { selector: 'input' });
    for (const [field, value] of Object.entries(filled)) fireEvent.change(input(field), { target: { value } });
    // the right number with a wrong check character
    fireEvent.change(input('idCard'), { target: { value: `${ID_CARD.slice(0, 17)}2` } });
    fireEvent.change(input('password'), { target: { value: weak } });
    const save = within(dialog).getByRole('button', { name: i18n.t('crud.save') });
    await act(async () => {
      fireEvent.click(save);
    });
    expect(await within(dialog).findByText(translate(lang, 'validation.idCard', { field: label('idCard') }))).toBeTruthy();
    expect(await within(dialog).findByText(translate(lang, 'validation.visitorPassword', { field: label('password') }))).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(input('idCard'), { target: { value: ID_CARD } });
    fireEvent.change(input('password'), { target: { value: '123456' } });
    await act(async () => {
      fireEvent.click(save);
    });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ lang, body: { ...filled, idCard: ID_CARD, password: '123456' } });
    expect((await within(dialog).findByRole('alert')).textContent).toContain(translate(lang, refusal));
    // the dialog stays open for the correction
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});
