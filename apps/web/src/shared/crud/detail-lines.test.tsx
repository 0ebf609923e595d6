import { crudPath, detailPath, orderEntity } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInConsole } from '../../test-providers.tsx';
import { EntityFormModal } from './entity-form-modal.tsx';
import { formPayload, initialFormValues } from './form-values.ts';

const envelope = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 1 });
const [customers, tickets] = orderEntity.details!;
const stored = { id: 'o1', orderCode: 'ORD-1', ctype: '1', orderDate: '2026-03-01', orderMoney: '10', content: null };
const storedCustomers = [
  { id: 'c1', name: 'Zhang San', sex: '1', idcard: null, telphone: '13800000001', orderId: 'o1' },
  { id: 'c2', name: 'Li Si', sex: '2', idcard: null, telphone: '13800000002', orderId: 'o1' },
];
/** A line's control by its id, as antd names it: `<form>_<detail>_<line>_<field>`. */
const control = (detail: string, line: number, field: string) => document.getElementById(`order-form_${detail}_${line}_${field}`) as HTMLInputElement | null;
const addLine = (detail: string) => document.querySelector(`[data-detail="${detail}"] [data-command="addLine"]`) as HTMLElement;
let sent: Array<{ url: string; method: string; body: Record<string, unknown> | null }>;

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      sent.push({ url, method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null });
      if (url.includes(detailPath(orderEntity, customers!))) return Response.json(envelope(storedCustomers));
      if (url.includes(detailPath(orderEntity, tickets!))) return Response.json(envelope([]));
      if (url.includes('/sys/dict')) return Response.json(envelope([{ value: '1', text: '男', label: '男', title: '男' }, { value: '2', text: '女', label: '女', title: '女' }]));
      if (url.includes(crudPath(orderEntity, 'edit')) || url.includes(crudPath(orderEntity, 'add'))) return Response.json(envelope({ id: 'o1' }));
      return Response.json(envelope(null));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('form values of a declaration with details', () => {
  it('start from the row’s lines with their ids, and are sent whole with the ids of stored lines only', () => {
    const initial = initialFormValues(orderEntity, 'edit', { ...stored, jeecgOrderCustomerList: storedCustomers, jeecgOrderTicketList: [] });
    expect(initial.jeecgOrderCustomerList).toEqual([
      { id: 'c1', name: 'Zhang San', sex: '1', idcard: undefined, telphone: '13800000001' },
      { id: 'c2', name: 'Li Si', sex: '2', idcard: undefined, telphone: '13800000002' },
    ]);
    expect(initialFormValues(orderEntity, 'add', null).jeecgOrderTicketList).toEqual([]);
    const body = formPayload(orderEntity, 'edit', { orderCode: 'ORD-1', jeecgOrderCustomerList: [{ id: 'c2', name: ' Li Si ', telphone: '' }, { name: 'Wang Wu' }], jeecgOrderTicketList: [] }, 'o1');
    expect(body).toMatchObject({ id: 'o1', jeecgOrderCustomerList: [{ id: 'c2', name: 'Li Si' }, { name: 'Wang Wu' }], jeecgOrderTicketList: [] });
    // a form without the lines (never drawn) sends none: the stored lines stay
    expect(formPayload(orderEntity, 'edit', { orderCode: 'ORD-1' }, 'o1')).not.toHaveProperty('jeecgOrderCustomerList');
  });
});

describe('the form of an order', () => {
  it('edits the stored lines in a tab per detail: a line deleted, one added, the list sent with the kept ids', async () => {
    const closed = vi.fn();
    renderInConsole(<EntityFormModal entity={orderEntity} mode="edit" row={stored} onClose={closed} />);
    await waitFor(() => expect(control('jeecgOrderCustomerList', 1, 'name')?.value).toBe('Li Si'));
    expect(control('jeecgOrderCustomerList', 0, 'name')?.value).toBe('Zhang San');
    // the first customer goes, a ticket comes (its tab drawn too, so its lines are checked and sent)
    const deleteFirst = document.querySelector('[data-detail="jeecgOrderCustomerList"] [data-command="deleteLine"]') as HTMLElement;
    expect(deleteFirst.getAttribute('aria-label')).toBe('删除第 1 行');
    fireEvent.click(deleteFirst);
    fireEvent.click(screen.getByText('机票信息'));
    await act(async () => {
      fireEvent.click(addLine('jeecgOrderTicketList'));
    });
    await waitFor(() => expect(document.activeElement).toBe(control('jeecgOrderTicketList', 0, 'ticketCode')));
    fireEvent.change(control('jeecgOrderTicketList', 0, 'ticketCode')!, { target: { value: 'CA1234' } });
    await act(async () => {
      fireEvent.click(screen.getByText('保存'));
    });
    await waitFor(() => expect(closed).toHaveBeenCalled());
    const edit = sent.find((s) => s.method === 'PUT');
    expect(edit?.body).toMatchObject({ id: 'o1', jeecgOrderCustomerList: [{ id: 'c2', name: 'Li Si', sex: '2' }], jeecgOrderTicketList: [{ ticketCode: 'CA1234' }] });
    expect((edit?.body?.jeecgOrderTicketList as Array<Record<string, unknown>>)[0]).not.toHaveProperty('id');
  });

  it('checks a new line before anything is sent: a customer needs a name, and a phone number is checked', async () => {
    renderInConsole(<EntityFormModal entity={orderEntity} mode="add" row={null} onClose={() => undefined} />);
    await waitFor(() => expect(document.getElementById('order-form_orderCode')).toBeTruthy());
    fireEvent.change(document.getElementById('order-form_orderCode')!, { target: { value: 'ORD-9' } });
    await act(async () => {
      fireEvent.click(addLine('jeecgOrderCustomerList'));
    });
    await waitFor(() => expect(control('jeecgOrderCustomerList', 0, 'telphone')).toBeTruthy());
    fireEvent.change(control('jeecgOrderCustomerList', 0, 'telphone')!, { target: { value: 'abc' } });
    await act(async () => {
      fireEvent.click(screen.getByText('保存'));
    });
    expect(await screen.findByText('客户名不能为空')).toBeTruthy();
    expect(await screen.findByText('电话：请输入正确的手机号码')).toBeTruthy();
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
  });
});
