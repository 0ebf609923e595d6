import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictItemText, ellipsis, serverMessages, translate } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import {
  SCREENSHOT_VIEWS,
  addCheckRule,
  addRow,
  captureListAndForm,
  checkRuleTable,
  dialog,
  editRow,
  en,
  exportDeleteImport,
  exportTo,
  fillCheckRule,
  firstCells,
  label,
  openScreen as openPath,
  pickOption,
  pickTime,
  resetSearch,
  rows,
  save,
  search,
  searchPick,
  searchRange,
  searchTree,
  sortBy,
  waitForRow,
  type ScreenshotView,
} from './crud-page.ts';
import { launchBrowser, newContext, screenshot, signedInState, startAsAdmin, type AdminSession, type RunningServer, type SignedInState } from './harness.ts';

/** Vendors, tenants, check and fill rules, data sources and the address book: the registries of the system menu. */
const PASSWORD = 'Registry#Pass2';
const SECRET = 'S3cret!pw';
const VALID_RULES = JSON.stringify({ localRules: [{ digits: 2, pattern: '[A-Z]+', message: 'Two letters first', priority: 1 }], globalRules: [] });

let server: RunningServer;
let browser: Browser;
const downloads = mkdtempSync(join(tmpdir(), 'isps-registries-'));
const two = (i: number) => String(i).padStart(2, '0');

let call: AdminSession['call'];
/** the administrator signed in once for the whole file (sign-ins are rate limited): every context opens with it */
let admin: SignedInState;

beforeAll(async () => {
  ({ server, call } = await startAsAdmin(PASSWORD));
  // More than one page of each list, made through the API.
  for (let i = 1; i <= 12; i++) await call('POST', '/sys/vendor/add', { tradeName: `Vendor ${two(i)}`, gatherOffset: i * 10 });
  for (let i = 1; i <= 11; i++) {
    await call('POST', '/sys/tenant/add', { name: `Tenant ${two(i)}`, code: `t${two(i)}`, status: i % 3 === 0 ? 0 : 1, beginDate: `2026-01-${two(i)}T12:00:00.000Z` });
  }
  for (let i = 1; i <= 11; i++) await call('POST', '/sys/checkRule/add', { ruleName: `Rule ${two(i)}`, ruleCode: `rule_${two(i)}`, ruleJson: VALID_RULES });
  for (let i = 1; i <= 11; i++) {
    await call('POST', '/sys/fillRule/add', { ruleName: `Fill ${two(i)}`, ruleCode: `fill_${two(i)}`, ruleClass: i % 2 === 0 ? 'randomCode' : 'datedSerial', ruleParams: '{"prefix":"F"}' });
  }
  for (let i = 1; i <= 11; i++) {
    await call('POST', '/sys/dataSource/add', {
      name: `Source ${two(i)}`,
      code: `src_${two(i)}`,
      dbType: i % 2 === 0 ? 'mysql' : 'postgresql',
      dbUrl: `10.0.0.${i}:5432`,
      dbUsername: 'reader',
      dbPassword: SECRET,
    });
  }
  const group = await call<{ id: string }>('POST', '/sys/sysDepart/add', { departName: 'Field team', departOrder: 0 });
  for (let i = 1; i <= 11; i++) {
    await call('POST', '/sys/user/add', {
      username: `member${two(i)}`,
      realname: `Member ${two(i)}`,
      password: 'Member#Pass9',
      workNo: `W-${two(i)}`,
      phone: `138000000${two(i)}`,
      email: `member${two(i)}@example.com`,
      ...(i <= 4 ? { selecteddeparts: group.id } : {}),
    });
  }
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const serverText = (key: keyof (typeof serverMessages)['en-US'], params?: Record<string, string | number>) => translate('en-US', key, params);

/** A retry starts without the row an earlier try added: `base` like '/sys/vendor', `filter` like 'code=harbour'. */
async function removeLeftovers(base: string, filter: string) {
  for (const { id } of (await call<{ records: { id: string }[] }>('GET', `${base}/list?${filter}`)).records) await call('DELETE', `${base}/delete?id=${id}`);
}

async function openScreen(path: string) {
  const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
  const page = await context.newPage();
  await openPath(page, server.url, path);
  return { context, page };
}

/** Waits for a column's cells to be `expected` (the list has reloaded), in order when `ordered`. */
async function cellsAre(page: Page, column: number, expected: string[], ordered = false) {
  const sorted = (cells: string[]) => (ordered ? cells : [...cells].sort());
  await expect.poll(() => firstCells(page, column).then(sorted)).toEqual(sorted(expected));
}
const rowText = (page: Page, cellText: string) => rows(page).filter({ hasText: cellText }).first().innerText();

const CHECK_RULE_VIEWS: readonly ScreenshotView[] = [
  ['zh-CN', 'desktop'],
  ['en-US', 'desktop'],
  ['zh-CN', 'mobile'],
  ['en-US', 'mobile'],
];

/**
 * How a check rule table is laid out: the columns whose header text does not fit on one line inside them (with
 * their width), how many cells are fixed to a side, and the widths of the table's sideways scroller.
 */
async function ruleTableLayout(section: Locator) {
  return section.locator('.ant-table').evaluate((table) => {
    const narrowColumns = [...table.querySelectorAll<HTMLElement>('.ant-table-thead th')].flatMap((th) => {
      const title = (th.textContent ?? '').trim();
      if (!title) return [];
      const range = document.createRange();
      range.selectNodeContents(th);
      const lines = [...range.getClientRects()].filter((rect) => rect.width > 0);
      const box = th.getBoundingClientRect();
      const inner = box.right - parseFloat(getComputedStyle(th).paddingRight);
      const wraps = new Set(lines.map((rect) => Math.round(rect.bottom))).size > 1;
      const overflows = Math.max(...lines.map((rect) => rect.right)) > inner + 0.5;
      return wraps || overflows ? [`${title} (${Math.round(box.width)} px)`] : [];
    });
    const fixedColumns = table.querySelectorAll('.ant-table-thead th[class*="ant-table-cell-fix"]').length;
    const scroller = table.querySelector<HTMLElement>('.ant-table-content')!;
    return { narrowColumns, fixedColumns, scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
}

describe('registry screens built from declarations', () => {
  it('vendors: create, edit, search by name and offset range, sort, page, export, delete, import back', async () => {
    await removeLeftovers('/sys/vendor', `tradeName=${encodeURIComponent('Acme Palm')}`);
    const { context, page } = await openScreen('/system/vendor');
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    await addRow(page, async (form) => {
      await form.getByLabel(label('vendor.field.tradeName'), { exact: true }).fill('Acme Palm');
      await form.getByLabel(label('vendor.field.gatherOffset'), { exact: true }).fill('300');
    });
    await page.getByText(en('crud.total', { total: '13' })).waitFor();
    await expect.poll(() => rowText(page, 'Acme Palm')).toContain('300');

    await editRow(page, 'Acme Palm', async (form) => {
      await form.getByLabel(label('vendor.field.gatherOffset'), { exact: true }).fill('-450');
    });
    await expect.poll(() => rowText(page, 'Acme Palm')).toContain('-450');

    await search(page, label('vendor.field.tradeName'), 'Vendor 1');
    await cellsAre(page, 2, ['Vendor 12', 'Vendor 11', 'Vendor 10']);
    await resetSearch(page);
    await searchRange(page, label('vendor.field.gatherOffset'), '30', '50');
    await page.getByText(en('crud.total', { total: '3' })).waitFor();
    await cellsAre(page, 3, ['50', '40', '30']);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '13' })).waitFor();

    await sortBy(page, label('vendor.field.tradeName'));
    await expect.poll(() => firstCells(page, 2).then((c) => c[0])).toBe('Acme Palm');
    await page.locator('.ant-pagination-item-2').click();
    await cellsAre(page, 2, ['Vendor 10', 'Vendor 11', 'Vendor 12'], true);
    await sortBy(page, label('vendor.field.gatherOffset'));
    await cellsAre(page, 3, ['-450', '10', '20', '30', '40', '50', '60', '70', '80', '90'], true);

    await search(page, label('vendor.field.tradeName'), 'Acme');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    await exportDeleteImport(page, downloads, 'vendors.xlsx', 'Acme Palm');
    expect(await rowText(page, 'Acme Palm')).toContain('-450');
    await context.close();
  });

  it('tenants: create, refuse a duplicate code, edit, search by name, code, status and start days, sort, page, export, delete, import', async () => {
    await removeLeftovers('/sys/tenant', 'code=harbour');
    const { context, page } = await openScreen('/system/tenant');
    // the default tenant and eleven more
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    await addRow(page, async (form) => {
      await form.getByLabel(label('tenant.field.name'), { exact: true }).fill('Harbour campus');
      await form.getByLabel(label('tenant.field.code'), { exact: true }).fill('harbour');
      await pickTime(page, form.getByLabel(label('tenant.field.beginDate'), { exact: true }), '2026-03-15 08:00:00');
    });
    await waitForRow(page, 'harbour');
    expect(await rowText(page, 'harbour')).toMatch(/2026-03-15 08:00:00[\s\S]*Normal/);

    // The same code again is refused with the server's message, inside the form.
    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('tenant.field.name'), { exact: true }).fill('Copy');
    await dialog(page).getByLabel(label('tenant.field.code'), { exact: true }).fill('harbour');
    await save(page);
    await dialog(page).getByText(serverMessages['en-US']['duplicate.tenantCode']).waitFor();
    await dialog(page).getByRole('button', { name: en('common.cancel') }).click();
    await page.getByRole('button', { name: en('crud.discard') }).click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);

    await editRow(page, 'harbour', async (form) => {
      await pickOption(page, form.getByLabel(label('tenant.field.status'), { exact: true }), 'Frozen');
    });
    await expect.poll(() => rowText(page, 'harbour')).toContain('Frozen');

    await search(page, label('tenant.field.name'), 'Tenant 1');
    await cellsAre(page, 2, ['Tenant 11', 'Tenant 10']);
    await resetSearch(page);
    await search(page, label('tenant.field.code'), 'harb');
    await cellsAre(page, 3, ['harbour']);
    await resetSearch(page);
    await searchPick(page, label('tenant.field.status'), 'Frozen');
    await cellsAre(page, 3, ['harbour', 't09', 't06', 't03']);
    await resetSearch(page);
    await searchRange(page, label('tenant.field.beginDate'), '2026-01-03', '2026-01-05');
    await cellsAre(page, 3, ['t05', 't04', 't03']);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '13' })).waitFor();

    await sortBy(page, label('tenant.field.code'));
    await expect.poll(() => firstCells(page, 3).then((c) => c.slice(0, 3))).toEqual(['default', 'harbour', 't01']);
    await page.locator('.ant-pagination-item-2').click();
    await cellsAre(page, 3, ['t09', 't10', 't11'], true);

    await search(page, label('tenant.field.code'), 'harbour');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    await exportDeleteImport(page, downloads, 'tenants.xlsx', 'harbour');
    expect(await rowText(page, 'harbour')).toContain('Frozen');
    await context.close();
  });

  it('check rules: the rules are filled in two tables and must form a rule set; create, edit, search by name and code, sort, page, export, delete, import', async () => {
    await removeLeftovers('/sys/checkRule', 'ruleCode=badge_no');
    const { context, page } = await openScreen('/system/checkRule');
    await page.getByText(en('crud.total', { total: '11' })).waitFor();
    const rulesLabel = label('checkRule.field.ruleJson');
    const fieldError = (form: Locator, message: string) => form.locator('.ant-form-item-explain-error', { hasText: message }).waitFor();

    await addRow(page, async (form) => {
      await form.getByLabel(label('checkRule.field.ruleName'), { exact: true }).fill('Badge numbers');
      await form.getByLabel(label('checkRule.field.ruleCode'), { exact: true }).fill('badge_no');
      await save(page);
      await fieldError(form, translate('en-US', 'validation.required', { field: rulesLabel }));

      // a rule added and deleted again leaves an empty set, which the form refuses like the server
      await addCheckRule(form, 'localRules', {});
      await checkRuleTable(form, 'localRules').getByRole('button', { name: en('crud.checkRules.deleteRule') }).click();
      await fieldError(form, serverText('validation.checkRuleEmpty'));

      await addCheckRule(form, 'localRules', { digits: '2', pattern: '[A-Z', message: 'Two letters first' });
      const local = checkRuleTable(form, 'localRules');
      await local.getByText(translate('en-US', 'validation.regex', { field: label('checkRule.rule.pattern') })).waitFor();
      await local.getByText(en('crud.checkRules.tableErrors', { table: label('checkRule.rule.localRules'), count: '1' })).waitFor();
      await save(page);
      await fieldError(form, translate('en-US', 'validation.regex', { field: rulesLabel }));
      await fillCheckRule(form, 'localRules', 1, { pattern: '[A-Z]+' });
      await expect.poll(() => local.getByRole('alert').count()).toBe(0);

      await addCheckRule(form, 'globalRules', { pattern: '.{4,}', message: 'Four characters at least', priority: '2' });
      const trial = form.getByRole('textbox', { name: en('crud.checkRules.try') });
      await trial.fill('ab12');
      await form.getByText(en('crud.checkRules.tryFailed', { message: 'Two letters first' })).waitFor();
      await trial.fill('AB12');
      await form.getByText(en('crud.checkRules.tryPassed')).waitFor();
    });
    await waitForRow(page, 'badge_no');

    await editRow(page, 'badge_no', async (form) => {
      // the stored rules come back in the tables
      await expect.poll(() => checkRuleTable(form, 'localRules').getByLabel(`${label('checkRule.rule.pattern')} 1`, { exact: true }).inputValue()).toBe('[A-Z]+');
      await fillCheckRule(form, 'globalRules', 1, { message: 'Four characters, please' });
      await addCheckRule(form, 'localRules', { digits: '2', pattern: '\\d+', message: 'Then digits' });
      await form.getByLabel(label('checkRule.field.ruleDescription'), { exact: true }).fill('Two letters, then anything');
    });
    // the list cuts the description at 25 characters (SPEC section 9)
    await expect.poll(() => rowText(page, 'badge_no')).toContain(ellipsis('Two letters, then anything'));
    const badge = await call<{ records: Array<{ ruleJson: string }> }>('GET', '/sys/checkRule/list?ruleCode=badge_no');
    expect(JSON.parse(badge.records[0]!.ruleJson)).toEqual({
      localRules: [
        { digits: 2, pattern: '[A-Z]+', message: 'Two letters first', priority: 1 },
        { digits: 2, pattern: '\\d+', message: 'Then digits', priority: 3 },
      ],
      globalRules: [{ pattern: '.{4,}', message: 'Four characters, please', priority: 2 }],
    });
    // the detail view sums the set up and shows its tables
    await rows(page).filter({ hasText: 'badge_no' }).getByRole('button', { name: en('crud.detail') }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.getByText(en('crud.checkRules.summary', { local: '2', global: '1' })).waitFor();
    await drawer.getByText('Four characters, please').waitFor();
    await drawer.getByRole('button', { name: en('crud.close') }).or(drawer.locator('.ant-drawer-close')).first().click();

    await search(page, label('checkRule.field.ruleName'), 'Rule 1');
    await cellsAre(page, 2, ['Rule 11', 'Rule 10']);
    await resetSearch(page);
    await search(page, label('checkRule.field.ruleCode'), 'badge');
    await cellsAre(page, 3, ['badge_no']);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    await sortBy(page, label('checkRule.field.ruleCode'));
    await expect.poll(() => firstCells(page, 3).then((c) => c[0])).toBe('badge_no');
    await page.locator('.ant-pagination-item-2').click();
    await cellsAre(page, 3, ['rule_10', 'rule_11'], true);

    await search(page, label('checkRule.field.ruleCode'), 'badge_no');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    await exportDeleteImport(page, downloads, 'check-rules.xlsx', 'badge_no');
    await context.close();
  });

  it('fill rules: create, generate a value, edit the parameters, search by name, code and implementation, sort, page, export, delete, import', async () => {
    await removeLeftovers('/sys/fillRule', 'ruleCode=order_no');
    const { context, page } = await openScreen('/system/fillRule');
    await page.getByText(en('crud.total', { total: '11' })).waitFor();

    await addRow(page, async (form) => {
      await form.getByLabel(label('fillRule.field.ruleName'), { exact: true }).fill('Order numbers');
      await form.getByLabel(label('fillRule.field.ruleCode'), { exact: true }).fill('order_no');
      await pickOption(page, form.getByLabel(label('fillRule.field.ruleClass'), { exact: true }), label('fillRule.impl.datedSerial'));
      await form.getByLabel(label('fillRule.field.ruleParams'), { exact: true }).fill('{"prefix": "SO", "digits": 3}');
    });
    await waitForRow(page, 'order_no');
    expect(await rowText(page, 'order_no')).toContain(label('fillRule.impl.datedSerial'));

    const generate = async () => {
      await rows(page).filter({ hasText: 'order_no' }).getByRole('button', { name: en('system.fillRule.execute') }).click();
      const result = page.locator('.ant-modal-confirm:visible');
      await result.locator('.ant-modal-confirm-title', { hasText: en('system.fillRule.result') }).waitFor();
      const value = (await result.locator('.ant-modal-confirm-content').innerText()).trim();
      await result.getByRole('button', { name: en('common.ok') }).click();
      await result.waitFor({ state: 'hidden' });
      return value;
    };
    expect(await generate()).toMatch(/^SO\d{8}\d{3}$/);

    await editRow(page, 'order_no', async (form) => {
      await form.getByLabel(label('fillRule.field.ruleParams'), { exact: true }).fill('{"prefix": "PO", "digits": 5}');
    });
    await expect.poll(() => rowText(page, 'order_no')).toContain('"PO"');
    expect(await generate()).toMatch(/^PO\d{8}\d{5}$/);

    await search(page, label('fillRule.field.ruleName'), 'Fill 1');
    await cellsAre(page, 2, ['Fill 11', 'Fill 10']);
    await resetSearch(page);
    await search(page, label('fillRule.field.ruleCode'), 'order');
    await cellsAre(page, 3, ['order_no']);
    await resetSearch(page);
    await searchPick(page, label('fillRule.field.ruleClass'), label('fillRule.impl.randomCode'));
    await cellsAre(page, 3, ['fill_10', 'fill_08', 'fill_06', 'fill_04', 'fill_02']);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    await sortBy(page, label('fillRule.field.ruleCode'));
    await expect.poll(() => firstCells(page, 3).then((c) => c[0])).toBe('fill_01');
    await page.locator('.ant-pagination-item-2').click();
    await cellsAre(page, 3, ['fill_11', 'order_no'], true);

    await search(page, label('fillRule.field.ruleCode'), 'order_no');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    await exportDeleteImport(page, downloads, 'fill-rules.xlsx', 'order_no');
    expect(await generate()).toMatch(/^PO\d{13}$/);
    await context.close();
  });

  it('data sources: create, test the connection to PostgreSQL, never show the password, edit, search, sort, page, export, delete, import', async () => {
    await removeLeftovers('/sys/dataSource', 'code=local_pg');
    const { context, page } = await openScreen('/system/dataSource');
    await page.getByText(en('crud.total', { total: '11' })).waitFor();

    await addRow(page, async (form) => {
      await form.getByLabel(label('dataSource.field.name'), { exact: true }).fill('Local test');
      // a code must start with a letter
      await form.getByLabel(label('dataSource.field.code'), { exact: true }).fill('1local');
      await save(page);
      await form.getByText(serverText('validation.dataSourceCode', { field: label('dataSource.field.code') })).waitFor();
      await form.getByLabel(label('dataSource.field.code'), { exact: true }).fill('local_pg');
      await pickOption(page, form.getByLabel(label('dataSource.field.dbType'), { exact: true }), 'PostgreSQL');
      await form.getByLabel(label('dataSource.field.dbUrl'), { exact: true }).fill('127.0.0.1:5432');
      await form.getByLabel(label('dataSource.field.dbName'), { exact: true }).fill('test');
      await form.getByLabel(label('dataSource.field.dbUsername'), { exact: true }).fill('postgres');
      await form.getByLabel(label('dataSource.field.dbPassword'), { exact: true }).fill(SECRET);
    });
    await waitForRow(page, 'local_pg');

    const succeeded = page.locator('.ant-message-notice', { hasText: serverText('dataSource.connectionSuccess') });
    const testConnection = async () => {
      await expect.poll(() => succeeded.count(), { timeout: 10_000 }).toBe(0);
      await rows(page).filter({ hasText: 'local_pg' }).getByRole('button', { name: label('dataSource.testConnection') }).click();
      await succeeded.first().waitFor();
    };
    await testConnection();

    // The password is in no list, detail or form.
    await rows(page).filter({ hasText: 'local_pg' }).getByRole('button', { name: en('crud.detail') }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.getByText('127.0.0.1:5432').waitFor();
    expect(await drawer.innerText()).not.toContain(SECRET);
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await editRow(page, 'local_pg', async (form) => {
      const password = form.getByLabel(label('dataSource.field.dbPassword'), { exact: true });
      expect(await password.inputValue()).toBe('');
      expect(await password.getAttribute('placeholder')).toBe(en('crud.passwordKeep'));
      await form.getByLabel(label('dataSource.field.name'), { exact: true }).fill('Local PostgreSQL');
    });
    await expect.poll(() => rowText(page, 'local_pg')).toContain('Local PostgreSQL');
    expect(await page.content()).not.toContain(SECRET);
    // the stored password was kept
    await testConnection();

    await search(page, label('dataSource.field.name'), 'Source 1');
    await cellsAre(page, 2, ['Source 11', 'Source 10']);
    await resetSearch(page);
    await search(page, label('dataSource.field.code'), 'local');
    await cellsAre(page, 3, ['local_pg']);
    await resetSearch(page);
    await searchPick(page, label('dataSource.field.dbType'), 'MySQL');
    await cellsAre(page, 3, ['src_10', 'src_08', 'src_06', 'src_04', 'src_02']);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    await sortBy(page, label('dataSource.field.code'));
    await expect.poll(() => firstCells(page, 3).then((c) => c[0])).toBe('local_pg');
    await page.locator('.ant-pagination-item-2').click();
    await cellsAre(page, 3, ['src_10', 'src_11'], true);

    await search(page, label('dataSource.field.code'), 'local_pg');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    await exportDeleteImport(page, downloads, 'data-sources.xlsx', 'local_pg');
    expect(await rowText(page, 'local_pg')).toContain('Local PostgreSQL');
    await context.close();
  });

  it('address book: the users listed read-only, searched by name, job number, phone, email and group, sorted, paged and exported', async () => {
    const { context, page } = await openScreen('/system/addressBook');
    // eleven members and the administrator
    await page.getByText(en('crud.total', { total: '12' })).waitFor();
    for (const action of ['crud.add', 'crud.import', 'crud.batchDelete'] as const) expect(await page.getByRole('button', { name: en(action) }).count()).toBe(0);
    expect(await rows(page).first().getByRole('button', { name: en('crud.edit') }).count()).toBe(0);

    await search(page, label('addressBook.field.realname'), 'Member 1');
    await cellsAre(page, 1, ['Member 10', 'Member 11'], true);
    await resetSearch(page);
    await search(page, label('addressBook.field.workNo'), 'W-03');
    await cellsAre(page, 2, ['member03']);
    await resetSearch(page);
    await search(page, label('addressBook.field.phone'), '13800000005');
    await cellsAre(page, 2, ['member05']);
    await resetSearch(page);
    await search(page, label('addressBook.field.email'), 'member07@');
    await cellsAre(page, 2, ['member07']);
    await resetSearch(page);
    // the group column names the groups; the search picks one from the group tree
    await expect.poll(() => rows(page).filter({ hasText: 'member01' }).locator('td:nth-child(6)').innerText()).toBe('Field team');
    await searchTree(page, label('addressBook.field.departs'), 'Field team');
    await cellsAre(page, 2, ['member01', 'member02', 'member03', 'member04'], true);
    const file = await exportTo(page, downloads, 'address-book.xlsx');
    expect(file).toMatch(/address-book\.xlsx$/);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    await sortBy(page, label('addressBook.field.username'));
    await expect.poll(() => firstCells(page, 2).then((c) => c[0])).toBe('admin');
    await sortBy(page, label('addressBook.field.username'));
    await expect.poll(() => firstCells(page, 2).then((c) => c[0])).toBe('member11');
    await page.locator('.ant-pagination-item-2').click();
    await cellsAre(page, 2, ['member01', 'admin'], true);
    await context.close();
  });

  const screens = (lang: UiLanguage) => [
    { path: '/system/vendor', name: 'system-vendor', ready: (page: Page) => waitForRow(page, 'Vendor 12') },
    // dictionary texts in the reader's language ('冻结', not 'Frozen')
    {
      path: '/system/tenant',
      name: 'system-tenant',
      ready: (page: Page) => rows(page).filter({ hasText: 't09' }).filter({ hasText: dictItemText(lang, 'tenant_status', '0', 'Frozen') }).waitFor(),
    },
    { path: '/system/checkRule', name: 'system-check-rule', ready: (page: Page) => waitForRow(page, 'rule_11') },
    { path: '/system/fillRule', name: 'system-fill-rule', ready: (page: Page) => waitForRow(page, 'fill_11') },
    { path: '/system/dataSource', name: 'system-data-source', ready: (page: Page) => waitForRow(page, 'src_11') },
    { path: '/system/addressBook', name: 'system-address-book', ready: (page: Page) => waitForRow(page, 'member09'), form: false },
  ];

  it.each(SCREENSHOT_VIEWS)('list and form screenshots in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    // one page for the six screens
    await openPath(page, server.url, '/system/vendor');
    for (const screen of screens(lang)) await captureListAndForm(page, [lang, viewport], screen);
    await context.close();
  });

  it.each(CHECK_RULE_VIEWS)('check rule tables in %s on %s: every column at least as wide as its header, sideways scrolling on a phone', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openPath(page, server.url, '/system/checkRule');
    await waitForRow(page, 'rule_11');
    // the check rule form with a rule in each table, one expression wrong
    await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
    const form = dialog(page);
    const tips = lang === 'zh-CN' ? ['前两位须为大写字母', '至少四位'] : ['Two capital letters first', 'Four characters at least'];
    await addCheckRule(form, 'localRules', { digits: '2', pattern: '[A-Z', message: tips[0] }, lang);
    await addCheckRule(form, 'globalRules', { pattern: '.{4,}', message: tips[1], priority: '2' }, lang);
    await form.getByRole('textbox', { name: text(lang, 'crud.checkRules.try') }).fill('AB12');
    for (const table of ['localRules', 'globalRules'] as const) {
      const section = checkRuleTable(form, table, lang);
      // typing scrolled the table: measure it from its start
      await section.locator('.ant-table-content').evaluate((scroller) => scroller.scrollTo({ left: 0 }));
      const measured = await ruleTableLayout(section);
      expect(measured.narrowColumns, `${table}: columns narrower than their header`).toEqual([]);
      if (viewport === 'mobile') {
        expect(measured.fixedColumns, `${table}: a fixed column covers the narrow table`).toBe(0);
        expect(measured.scrollWidth, `${table}: scrolls sideways`).toBeGreaterThan(measured.clientWidth);
      } else {
        expect(measured.scrollWidth, `${table}: fits the dialog`).toBeLessThanOrEqual(measured.clientWidth);
      }
    }
    await checkRuleTable(form, 'localRules', lang).scrollIntoViewIfNeeded();
    await screenshot(page, `system-check-rule-rules-${lang}-${viewport}`);
    await context.close();
  });
});
