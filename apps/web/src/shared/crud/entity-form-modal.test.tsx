import { IdType, maskCardNo, visitorEntity } from '@isps/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInConsole } from '../../test-providers.tsx';
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
