import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, detailPath, orderEntity, TENANT_HEADER, withIdCheck } from '@isps/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, uploadFile } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

type Line = Record<string, unknown>;
const [customers, tickets] = orderEntity.details!;
const idCard = (n: number) => withIdCheck(`11010519900101${String(n).padStart(3, '0')}`);

describe.each(await testDialects())('orders with their customers and tickets on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let clerk: string;
  let otherClerk: string;
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const linesOf = async (token: string, id: string) => ({
    customers: (await call<Line[]>(token, 'GET', `${detailPath(orderEntity, customers!)}?id=${id}`)).envelope.result,
    tickets: (await call<Line[]>(token, 'GET', `${detailPath(orderEntity, tickets!)}?id=${id}`)).envelope.result,
  });
  const order = (code: string, extra: Record<string, unknown> = {}) => ({
    orderCode: code,
    ctype: '1',
    orderDate: '2026-03-01',
    orderMoney: '1200.50',
    content: 'Business trip',
    jeecgOrderCustomerList: [
      { name: 'Zhang San', sex: '1', idcard: idCard(1), telphone: '13800000001' },
      { name: 'Li Si', sex: '2', idcard: idCard(2), telphone: '13800000002' },
    ],
    jeecgOrderTicketList: [{ ticketCode: 'CA1234', tickectDate: '2026-03-02' }],
    ...extra,
  });
  const countLines = async (table: 'jeecg_order_customer' | 'jeecg_order_ticket', orderId: string) =>
    Number((await app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('order_id', '=', orderId).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    await adminToken(app);
    const codes = ['list', 'add', 'edit', 'delete', 'export', 'import'].map((a) => `message:order:${a}`);
    await createRoleWith(app, 'order_clerk', codes);
    const otherTenant = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Other', code: 'other-orders', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createTestUser(app, 'order-clerk', { roles: ['order_clerk'] });
    await createTestUser(app, 'order-clerk-b', { roles: ['order_clerk'], tenantId: otherTenant });
    clerk = await login(app, 'order-clerk', USER_PASSWORD);
    otherClerk = await login(app, 'order-clerk-b', USER_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('adds an order with its lines in one go, and reads them back by the origin’s routes', async () => {
    const added = await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-1'));
    expect(added.envelope).toMatchObject({ success: true, code: 200 });
    const id = added.envelope.result.id;
    const row = await call<Line>(clerk, 'GET', `${crudPath(orderEntity, 'queryById')}?id=${id}`);
    expect(row.envelope.result).toMatchObject({ orderCode: 'ORD-1', ctype: '1', orderDate: '2026-03-01', orderMoney: '1200.50' });
    const lines = await linesOf(clerk, id);
    expect(lines.customers.map((c) => [c.name, c.sex, c.sex_dictText, c.telphone, c.orderId])).toEqual([
      ['Zhang San', '1', 'Male', '13800000001', id],
      ['Li Si', '2', 'Female', '13800000002', id],
    ]);
    expect(lines.tickets).toMatchObject([{ ticketCode: 'CA1234', tickectDate: '2026-03-02', orderId: id }]);
    // the lines take the order's tenant
    const tenants = await app.db.selectFrom('jeecg_order_customer').select('tenant_id').where('order_id', '=', id).execute();
    const own = await app.db.selectFrom('jeecg_order_main').select('tenant_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(tenants.every((r) => r.tenant_id === own.tenant_id && r.tenant_id !== null)).toBe(true);
  });

  it('an edit changes kept lines, adds new ones and deletes the lines left out; without the list the lines stay', async () => {
    const id = (await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-2'))).envelope.result.id;
    const before = await linesOf(clerk, id);
    const kept = before.customers[1]!;
    const edited = await call(clerk, 'PUT', crudPath(orderEntity, 'edit'), {
      id,
      orderCode: 'ORD-2',
      jeecgOrderCustomerList: [
        { id: kept.id, name: 'Li Si (changed)', sex: '2', idcard: kept.idcard, telphone: '13800000009' },
        { name: 'Wang Wu', telphone: '13800000003' },
      ],
      jeecgOrderTicketList: [],
    });
    expect(edited.envelope.success).toBe(true);
    const after = await linesOf(clerk, id);
    expect(after.customers.map((c) => [c.name, c.telphone])).toEqual([
      ['Li Si (changed)', '13800000009'],
      ['Wang Wu', '13800000003'],
    ]);
    expect(after.customers[0]!.id).toBe(kept.id);
    expect(after.tickets).toEqual([]);
    // an edit of the order's fields only keeps its lines
    expect((await call(clerk, 'PUT', crudPath(orderEntity, 'edit'), { id, content: 'Only the remark' })).envelope.success).toBe(true);
    expect((await linesOf(clerk, id)).customers).toHaveLength(2);
    // a line id of another order is not taken over: it becomes a new line of this one
    const otherId = (await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-2B'))).envelope.result.id;
    const foreign = (await linesOf(clerk, otherId)).customers[0]!;
    await call(clerk, 'PUT', crudPath(orderEntity, 'edit'), { id, jeecgOrderCustomerList: [{ id: foreign.id, name: 'Taken?' }] });
    expect((await linesOf(clerk, otherId)).customers.map((c) => c.name)).toEqual(['Zhang San', 'Li Si']);
    expect((await linesOf(clerk, id)).customers.map((c) => c.name)).toEqual(['Taken?']);
  });

  it('delete and deleteBatch remove the lines with their orders', async () => {
    const one = (await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-3'))).envelope.result.id;
    const two = (await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-4'))).envelope.result.id;
    const three = (await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-5'))).envelope.result.id;
    expect((await call(clerk, 'DELETE', `${crudPath(orderEntity, 'delete')}?id=${one}`)).envelope.success).toBe(true);
    expect((await call(clerk, 'DELETE', `${crudPath(orderEntity, 'deleteBatch')}?ids=${two},${three}`)).envelope.success).toBe(true);
    for (const id of [one, two, three]) {
      expect(await countLines('jeecg_order_customer', id)).toBe(0);
      expect(await countLines('jeecg_order_ticket', id)).toBe(0);
    }
  });

  it('another tenant neither sees an order nor its lines, nor changes or deletes them', async () => {
    const id = (await call<{ id: string }>(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-6'))).envelope.result.id;
    const list = await call<{ records: Line[] }>(otherClerk, 'GET', `${crudPath(orderEntity, 'list')}?pageSize=100`);
    expect(list.envelope.result.records.map((r) => r.orderCode)).not.toContain('ORD-6');
    const lines = await call(otherClerk, 'GET', `${detailPath(orderEntity, customers!)}?id=${id}`);
    expect(lines.envelope).toMatchObject({ success: false });
    expect(lines.statusCode).toBeLessThan(500);
    await call(otherClerk, 'PUT', crudPath(orderEntity, 'edit'), { id, jeecgOrderCustomerList: [] });
    await call(otherClerk, 'DELETE', `${crudPath(orderEntity, 'delete')}?id=${id}`);
    expect(await countLines('jeecg_order_customer', id)).toBe(2);
    // the same order number is free in the other tenant, taken in one's own
    expect((await call(otherClerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-6'))).envelope.success).toBe(true);
    const twin = await call(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-6'));
    expect(twin.envelope).toMatchObject({ success: false, message: 'Order number already exists!' });
  });

  it('refuses bad lines with a localised message naming the line, never a 500, and stores nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ jeecgOrderCustomerList: [{ name: 'A' }, { sex: '1' }] }, 'en-US', 'Customer 2: Customer name is required'],
      [{ jeecgOrderCustomerList: [{ name: 'A', idcard: '123' }] }, 'en-US', 'Customer 1: ID card number: please enter a legal ID card number'],
      [{ jeecgOrderCustomerList: [{ name: 'A', telphone: 'abc' }] }, 'en-US', 'Customer 1: Phone: please enter a valid phone number'],
      [{ jeecgOrderTicketList: [{ ticketCode: 'CA1' }, { tickectDate: '2026-01-01' }] }, 'en-US', 'Ticket 2: Flight number is required'],
      [{ jeecgOrderTicketList: [{ ticketCode: 'CA1', tickectDate: 'tomorrow' }] }, 'en-US', 'Ticket 1: '],
      [{ jeecgOrderCustomerList: [{ sex: '1' }] }, 'zh-CN', '客户 1：客户名'],
      [{ jeecgOrderCustomerList: [{ sex: '1' }] }, 'ja-JP', '顧客 1：顧客名'],
      [{ jeecgOrderCustomerList: 'nope' }, 'en-US', 'Customers must be a list of lines'],
    ];
    for (const [extra, lang, message] of cases) {
      const answer = await call(clerk, 'POST', crudPath(orderEntity, 'add'), order('ORD-BAD', extra), lang);
      expect(answer.statusCode, JSON.stringify(extra)).toBe(400);
      expect(answer.envelope.success).toBe(false);
      expect(answer.envelope.message).toContain(message);
    }
    expect(await app.db.selectFrom('jeecg_order_main').select('id').where('order_code', '=', 'ORD-BAD').executeTakeFirst()).toBeUndefined();
  });

  it('exports orders with their lines below them, and imports that file back as new orders with the same lines', async () => {
    const exported = await injectAs(app, clerk, { method: 'GET', url: `${api(app, crudPath(orderEntity, 'exportXls'))}?orderCode=ORD-1`, headers: { lang: 'en-US' } });
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(['Order number', 'Order type', 'Customers · Customer name', 'Customers · Phone', 'Tickets · Flight number']));
    const at = (row: unknown[], label: string) => row[header.indexOf(label)];
    expect(rows).toHaveLength(3);
    expect(at(rows[1]!, 'Order number')).toBe('ORD-1');
    expect(at(rows[1]!, 'Order type')).toBe('Domestic order');
    expect([at(rows[1]!, 'Customers · Customer name'), at(rows[2]!, 'Customers · Customer name')]).toEqual(['Zhang San', 'Li Si']);
    expect([at(rows[1]!, 'Customers · Gender'), at(rows[2]!, 'Customers · Gender')]).toEqual(['Male', 'Female']);
    expect(at(rows[1]!, 'Tickets · Flight number')).toBe('CA1234');
    expect(at(rows[2]!, 'Order number') ?? '').toBe('');

    // the same file read back: the order number is taken, so it is imported under a new one (and a bad line is refused)
    const sheet = workbook.worksheets[0]!;
    sheet.getRow(2).getCell(header.indexOf('Order number') + 1).value = 'ORD-1-COPY';
    const bad = sheet.addRow([]);
    bad.getCell(header.indexOf('Order number') + 1).value = 'ORD-1-BAD';
    bad.getCell(header.indexOf('Customers · Customer name') + 1).value = 'Bad Phone';
    bad.getCell(header.indexOf('Customers · Phone') + 1).value = 'abc';
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const done = await uploadFile(app, clerk, crudPath(orderEntity, 'importExcel'), file);
    const report = done.envelope.result as { added: number; failed: number; rows: Array<{ row: number; success: boolean; message?: string }> };
    expect(report).toMatchObject({ added: 1, failed: 1 });
    expect(report.rows.find((r) => !r.success)).toMatchObject({ row: 4, message: 'Customer 1: Phone: please enter a valid phone number' });
    const copy = await app.db.selectFrom('jeecg_order_main').selectAll().where('order_code', '=', 'ORD-1-COPY').executeTakeFirstOrThrow();
    expect(copy).toMatchObject({ ctype: '1', order_date: '2026-03-01', order_money: '1200.50' });
    const lines = await linesOf(clerk, copy.id);
    expect(lines.customers.map((c) => [c.name, c.sex, c.idcard, c.telphone])).toEqual([
      ['Zhang San', '1', idCard(1), '13800000001'],
      ['Li Si', '2', idCard(2), '13800000002'],
    ]);
    expect(lines.tickets.map((l) => [l.ticketCode, l.tickectDate])).toEqual([['CA1234', '2026-03-02']]);
  });

  it('a system administrator working in another tenant writes the lines into that tenant', async () => {
    const admin = await adminToken(app);
    const tenantB = (await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'other-orders').executeTakeFirstOrThrow()).id;
    const added = await injectAs<{ id: string }>(app, admin, { method: 'POST', url: api(app, crudPath(orderEntity, 'add')), payload: order('ORD-ADMIN'), headers: { lang: 'en-US', [TENANT_HEADER]: tenantB } });
    expect(added.envelope.success).toBe(true);
    const stored = await app.db.selectFrom('jeecg_order_ticket').select('tenant_id').where('order_id', '=', added.envelope.result.id).execute();
    expect(stored.map((r) => r.tenant_id)).toEqual([tenantB]);
    expect((await linesOf(otherClerk, added.envelope.result.id)).customers).toHaveLength(2);
  });
});
