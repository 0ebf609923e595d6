import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages, translate } from '../packages/contract/src/index.ts';
import { SCREENSHOT_VIEWS, cellsUnderActions, deleteRow, dialog, en, exportTo, importFrom, label, openScreen, pickOption, pickOptions, pickTime, resetSearch, rows, save, search, screenshotListAndForm, waitForRow, type ScreenshotView } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';
import { text } from './catalogues.ts';

const PASSWORD = 'Users#Pass2';
const NEW_USER_PASSWORD = 'Clerk#Pass9';
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
let token: string;
const folder = mkdtempSync(join(tmpdir(), 'isps-users-'));

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  for (const [roleName, roleCode] of [['Clerk', 'clerk'], ['Guard', 'guard']]) {
    const { body } = await api(server, 'POST', '/sys/role/add', { token, body: { roleName, roleCode, roleType: 1 } });
    if (!body.success) throw new Error(body.message);
  }
  for (let i = 1; i <= 11; i++) {
    const { body } = await api(server, 'POST', '/sys/user/add', { token, body: { username: `staff${String(i).padStart(2, '0')}`, realname: `Staff ${i}`, password: NEW_USER_PASSWORD } });
    if (!body.success) throw new Error(body.message);
  }
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name }).first();
const serverText = (key: keyof (typeof serverMessages)['en-US'], params?: Record<string, string | number>) => translate('en-US', key, params);

async function moreAction(page: Page, username: string, action: 'userScreen.freeze' | 'userScreen.thaw' | 'userScreen.resetPassword' | 'userScreen.agent') {
  await rowOf(page, username).getByRole('button', { name: en('userScreen.more') }).click();
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: en(action) }).click();
}

const ALL_VIEWS: readonly ScreenshotView[] = [
  ['zh-CN', 'desktop'],
  ['en-US', 'desktop'],
  ['zh-CN', 'mobile'],
  ['en-US', 'mobile'],
];

/**
 * The table in `within`: the body cells whose text is cut (wider than the cell's content box, or a time broken over
 * two lines), as "<header>: <text>", the headers broken over lines, and the widths of its sideways scroller.
 */
async function tableLayout(within: Locator) {
  return within.locator('.ant-table').first().evaluate((table) => {
    const headers = [...table.querySelectorAll('.ant-table-thead th')].map((th) => (th.textContent ?? '').trim());
    const cutCells: string[] = [];
    for (const row of table.querySelectorAll('.ant-table-tbody tr.ant-table-row')) {
      [...row.children].forEach((cell, index) => {
        const content = (cell.textContent ?? '').trim();
        if (!content) return;
        const box = cell.getBoundingClientRect();
        const style = getComputedStyle(cell);
        const range = document.createRange();
        range.selectNodeContents(cell);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        const overflows = Math.max(...rects.map((rect) => rect.right)) > box.right - parseFloat(style.paddingRight) + 0.5;
        const brokenTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(content) && new Set(rects.map((rect) => Math.round(rect.bottom))).size > 1;
        if (overflows || brokenTime) cutCells.push(`${headers[index] ?? index}: ${content}`);
      });
    }
    // a header's own text (not its sort arrows) on one line
    const brokenHeaders = [...table.querySelectorAll('.ant-table-thead th')].flatMap((th) => {
      const title = th.querySelector('.ant-table-column-title') ?? th;
      const range = document.createRange();
      range.selectNodeContents(title);
      const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)));
      return lines.size > 1 ? [(th.textContent ?? '').trim()] : [];
    });
    const scroller = table.querySelector<HTMLElement>('.ant-table-content')!;
    return { cutCells, brokenHeaders, scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
}

describe('groups and users', () => {
  it('builds the group tree with generated org codes', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/depart');
    // a retry starts without the groups an earlier try made
    for (const name of ['Sales', 'Service', 'Head office']) {
      const { body } = await api<{ records: { id: string }[] }>(server, 'GET', `/sys/sysDepart/list?departName=${encodeURIComponent(name)}`, { token });
      for (const { id } of body.result.records) await api(server, 'DELETE', `/sys/sysDepart/delete?id=${id}`, { token });
    }
    await page.reload();
    for (const [name, parent] of [['Head office', null], ['Sales', 'Head office'], ['Service', 'Head office']] as const) {
      await page.getByRole('button', { name: en('crud.add') }).click();
      const form = dialog(page);
      await form.getByLabel(label('depart.field.departName'), { exact: true }).fill(name);
      if (parent) {
        await form.getByLabel(label('depart.field.parentId'), { exact: true }).click();
        await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: parent }).first().click();
      }
      await save(page);
      await page.getByText(serverText('crud.added')).first().waitFor();
      await form.waitFor({ state: 'hidden' });
    }
    await waitForRow(page, 'Head office');
    // children sit under their parent with the parent's code as prefix
    await rowOf(page, 'Head office').locator('.ant-table-row-expand-icon').first().click().catch(() => undefined);
    await waitForRow(page, 'Sales');
    const headCode = (await rowOf(page, 'Head office').innerText()).match(/\b[A-Z]\d{2}\b/)?.[0];
    expect(headCode).toBeTruthy();
    await expect.poll(async () => rowOf(page, 'Sales').innerText()).toContain(`${headCode}A01`);
    // the long English row actions are fixed on the right: no cell's text (the creation time) runs under them
    expect(await cellsUnderActions(page.locator('body'))).toEqual([]);
    await screenshot(page, 'system-depart-en-US-desktop');
    await context.close();
  });

  it('adds a user with roles and groups, refuses weak passwords and duplicates, searches and pages', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/user');
    await page.getByText(en('crud.total', { total: '12' })).waitFor();
    // eleven staff and the admin: two pages of ten
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.locator('.ant-pagination-item-1').click();

    await page.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('user.field.username'), { exact: true }).fill('staff01');
    await form.getByLabel(label('user.field.realname'), { exact: true }).fill('Zhang San');
    await form.getByLabel(label('user.field.password'), { exact: true }).fill('weakpass');
    await form.getByLabel(label('user.field.phone'), { exact: true }).fill('13800001111');
    await form.getByLabel(label('user.field.email'), { exact: true }).fill('not-an-email');
    await save(page);
    await form.getByText(serverText('password.weak')).waitFor();
    await form.getByText(translate('en-US', 'validation.email', { field: label('user.field.email') })).waitFor();
    await form.getByLabel(label('user.field.password'), { exact: true }).fill(NEW_USER_PASSWORD);
    await form.getByLabel(label('user.field.email'), { exact: true }).fill('zhang@example.com');
    await pickOptions(page, form.getByLabel(label('user.field.roles'), { exact: true }), ['Clerk', 'Guard']);
    await form.getByLabel(label('user.field.departs'), { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: 'Head office' }).first().click();
    await page.keyboard.press('Escape');
    await save(page);
    // the user name is taken: the server says so and the form stays open
    await page.getByText(serverText('duplicate.userName')).first().waitFor();
    await form.getByLabel(label('user.field.username'), { exact: true }).fill('zhang');
    await save(page);
    await waitForRow(page, 'Zhang San');
    await expect.poll(() => rowOf(page, 'Zhang San').innerText()).toContain('Clerk, Guard');
    await expect.poll(() => rowOf(page, 'Zhang San').innerText()).toContain('Head office');

    await search(page, label('user.field.realname'), 'Zhang');
    await expect.poll(() => rows(page).count()).toBe(1);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '13' })).waitFor();

    // sort by user name: the admin comes first ascending
    await page.locator('.ant-table-thead th', { hasText: label('user.field.username') }).click();
    await expect.poll(async () => (await rows(page).first().innerText()).trim()).toMatch(/^admin\b/);
    await exportTo(page, folder, 'users.xlsx');
    expect(await cellsUnderActions(page.locator('body'))).toEqual([]);
    await screenshot(page, 'system-user-list-en-US-desktop');

    // Export one user, remove the account completely and import it back: the file carries no password, so the
    // import asks for an initial one (checked like the form) that the user must replace at the first sign-in.
    await search(page, label('user.field.realname'), 'Zhang');
    await expect.poll(() => rows(page).count()).toBe(1);
    const file = await exportTo(page, folder, 'zhang.xlsx');
    await deleteRow(page, 'Zhang San');
    await page.getByText(serverText('crud.deleted')).first().waitFor();
    await page.getByRole('button', { name: en('crud.recycleBin') }).click();
    const bin = dialog(page);
    await bin.locator('.ant-table-row', { hasText: 'zhang' }).getByRole('button', { name: en('crud.deleteCompletely') }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.ok') }).click();
    await page.getByText(serverText('crud.deleted')).first().waitFor();
    await bin.locator('.ant-modal-close').click();
    await page.getByRole('button', { name: en('crud.import') }).click();
    const ask = dialog(page);
    await ask.getByText(en('crud.importAskTitle', { entity: label('user.title') })).waitFor();
    await ask.getByRole('button', { name: en('crud.import'), exact: true }).click();
    await ask.getByText(en('crud.importFileMissing')).waitFor();
    await ask.getByLabel(en('crud.importInitialLabel', { field: label('user.field.password') }), { exact: true }).fill('weakpass');
    await ask.locator('.ant-upload input[type=file]').setInputFiles(file);
    await ask.getByRole('button', { name: en('crud.import'), exact: true }).click();
    await ask.getByText(serverText('password.weak')).waitFor();
    await screenshot(page, 'system-user-import-en-US-desktop');
    await ask.getByRole('button', { name: en('common.cancel') }).click();
    await importFrom(page, file, { total: 1, added: 1, failed: 0 }, { [en('crud.importInitialLabel', { field: label('user.field.password') })]: 'Import#Pass5' });
    await waitForRow(page, 'Zhang San');
    await expect.poll(() => rowOf(page, 'Zhang San').innerText()).toContain('13800001111');
    const signedIn = (await api<{ userInfo: { mustChangePassword: boolean } }>(server, 'POST', '/sys/login', { body: { username: 'zhang', password: 'Import#Pass5', captcha: 'none', checkKey: 'e2e' } })).body;
    expect(signedIn.result.userInfo.mustChangePassword).toBe(true);
    await resetSearch(page);
    await context.close();
  });

  it('freezes with confirmation, thaws, changes a password, sets an agent, and protects the administrator', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/user');
    await waitForRow(page, 'staff09');

    await moreAction(page, 'staff09', 'userScreen.freeze');
    const confirm = page.locator('.ant-modal-confirm:visible');
    await confirm.locator('.ant-modal-confirm-title', { hasText: en('userScreen.freezeConfirm', { name: 'staff09' }) }).waitFor();
    await confirm.getByRole('button', { name: en('userScreen.freeze') }).click();
    await page.getByText(serverText('userAdmin.frozenBatch', { count: 1 })).first().waitFor();
    await expect.poll(() => rowOf(page, 'staff09').innerText()).toContain('Frozen');
    expect((await apiLogin(server, 'staff09', NEW_USER_PASSWORD)).message).toBe(serverText('login.frozen'));
    await moreAction(page, 'staff09', 'userScreen.thaw');
    await expect.poll(() => rowOf(page, 'staff09').innerText()).toContain('Normal');

    // batch freeze needs a selection
    await page.getByRole('button', { name: en('userScreen.batchFreeze') }).click();
    await page.getByText(en('crud.selectRecord')).first().waitFor();

    // change password: both entries must match, then the server confirms
    await moreAction(page, 'staff03', 'userScreen.resetPassword');
    const reset = dialog(page);
    await reset.getByLabel(en('password.new'), { exact: true }).fill('Fresh#Pass77');
    await reset.getByLabel(en('password.confirm'), { exact: true }).fill('Fresh#Pass78');
    await reset.getByRole('button', { name: en('common.ok') }).click();
    await reset.getByText(en('password.mismatch')).waitFor();
    await reset.getByLabel(en('password.confirm'), { exact: true }).fill('Fresh#Pass77');
    await reset.getByRole('button', { name: en('common.ok') }).click();
    await page.getByText(serverText('userAdmin.passwordReset', { username: 'staff03' })).first().waitFor();
    expect((await apiLogin(server, 'staff03', 'Fresh#Pass77')).success).toBe(true);

    // agent setup: the agent screen fixed to this user
    await moreAction(page, 'staff04', 'userScreen.agent');
    const agentDialog = dialog(page);
    await agentDialog.getByRole('button', { name: en('crud.add') }).click();
    const agentForm = dialog(page);
    await pickOption(page, agentForm.getByLabel(label('userAgent.field.agentUserName'), { exact: true }), 'Staff 5');
    await pickTime(page, agentForm.getByLabel(label('userAgent.field.startTime'), { exact: true }), '2026-12-01 08:00:00');
    await pickTime(page, agentForm.getByLabel(label('userAgent.field.endTime'), { exact: true }), '2026-12-31 18:00:00');
    await save(page);
    await page.getByText(serverText('crud.added')).first().waitFor();
    await expect.poll(() => agentDialog.locator('.ant-table-row').first().innerText()).toContain('staff05');
    await screenshot(page, 'system-user-agent-en-US-desktop');
    await page.keyboard.press('Escape');
    await agentDialog.waitFor({ state: 'hidden' });

    // the administrator account refuses every one of these
    await search(page, label('user.field.username'), 'admin');
    await waitForRow(page, 'Administrator');
    await moreAction(page, 'admin', 'userScreen.freeze');
    await page.locator('.ant-modal-confirm:visible').getByRole('button', { name: en('userScreen.freeze') }).click();
    await page.getByText(serverText('error.adminProtected')).first().waitFor();
    await deleteRow(page, 'Administrator');
    await page.getByText(serverText('error.adminProtected')).first().waitFor();
    await context.close();
  });

  it('deletes to the recycle bin, restores several at once and deletes completely', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/user');
    for (const name of ['staff10', 'staff11']) {
      await deleteRow(page, name);
      await page.getByText(serverText('crud.deleted')).first().waitFor();
    }
    await page.getByRole('button', { name: en('crud.recycleBin') }).click();
    const bin = dialog(page);
    await bin.locator('.ant-table-row', { hasText: 'staff10' }).waitFor();
    await bin.locator('.ant-table-row', { hasText: 'staff11' }).waitFor();
    await bin.locator('.ant-table-thead .ant-checkbox-input').check();
    await bin.getByRole('button', { name: en('crud.restoreSelected') }).click();
    await page.getByText(serverText('crud.restored')).first().waitFor();
    await bin.locator('.ant-modal-close').click();
    await waitForRow(page, 'staff11');
    await context.close();
  });

  it("lists a group's users, adds existing ones with the user selector and removes them", async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/depart');
    await rowOf(page, 'Head office').getByRole('button', { name: en('groupUsers.action'), exact: true }).click();
    const members = dialog(page);
    await members.locator('.ant-table-row', { hasText: 'zhang' }).waitFor();
    await members.getByRole('button', { name: en('groupUsers.addExisting') }).click();
    const selector = dialog(page);
    await selector.getByRole('searchbox', { name: en('userSelect.search') }).fill('Staff 7');
    await selector.getByRole('searchbox', { name: en('userSelect.search') }).press('Enter');
    await expect.poll(() => selector.locator('.ant-table-row').count()).toBe(1);
    await selector.locator('.ant-table-row', { hasText: 'staff07' }).locator('.ant-checkbox-input').check();
    await screenshot(page, 'system-depart-user-select-en-US-desktop');
    await selector.getByRole('button', { name: en('common.ok') }).click();
    await page.getByText(serverText('depart.usersAdded', { count: 1 })).first().waitFor();
    await members.locator('.ant-table-row', { hasText: 'staff07' }).waitFor();
    await members.locator('.ant-table-row', { hasText: 'staff07' }).locator('.ant-checkbox-input').check();
    await members.getByRole('button', { name: en('groupUsers.remove') }).click();
    await page.locator('.ant-modal-confirm:visible').getByRole('button', { name: en('common.ok') }).click();
    await page.getByText(serverText('depart.usersRemoved', { count: 1 })).first().waitFor();
    await expect.poll(() => members.locator('.ant-table-row', { hasText: 'staff07' }).count()).toBe(0);
    await context.close();
  });

  it.each(ALL_VIEWS)("the users of a group in %s on %s: every column whole, each user a card on a phone", async (lang, viewport) => {
    // a member whose values are long, in three groups and with both roles
    const { body: found } = await api<{ records: unknown[] }>(server, 'GET', '/sys/user/list?username=amontgomery', { token });
    if (found.result.records.length === 0) {
      type Named = { id: string; departName?: string; roleName?: string; children?: Named[] };
      const flat = (list: Named[]): Named[] => list.flatMap((r) => [r, ...flat(r.children ?? [])]);
      const idsOf = async (path: string, names: string[]) => {
        const { body } = await api<{ records: Named[] }>(server, 'GET', `${path}?pageSize=100`, { token });
        return flat(body.result.records).filter((r) => names.includes(r.departName ?? r.roleName ?? '')).map((r) => r.id).join(',');
      };
      const { body } = await api(server, 'POST', '/sys/user/add', {
        token,
        body: {
          username: 'amontgomery',
          realname: 'Alexandra Montgomery-Smith',
          password: NEW_USER_PASSWORD,
          phone: '13900002222',
          email: 'alexandra.montgomery-smith@head-office.example.com',
          selecteddeparts: await idsOf('/sys/sysDepart/list', ['Head office', 'Sales', 'Service']),
          selectedroles: await idsOf('/sys/role/list', ['Clerk', 'Guard']),
        },
      });
      if (!body.success) throw new Error(body.message);
    }
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/depart');
    await rowOf(page, 'Head office').getByRole('button', { name: text(lang, 'groupUsers.action'), exact: true }).click();
    const members = dialog(page);
    await members.getByText(text(lang, 'groupUsers.title', { name: 'Head office' })).waitFor();
    if (viewport === 'mobile') {
      // a phone lists the members as cards: every line inside its card, none cut, nothing scrolls sideways
      const card = members.locator('[data-testid="crud-cards"] > li', { hasText: 'amontgomery' });
      await card.waitFor();
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `system-depart-users-${lang}-${viewport}`);
      const fits = await members.locator('[data-testid="crud-cards"]').evaluate((list) => {
        const right = list.getBoundingClientRect().right + 0.5;
        return [...list.querySelectorAll('li, dd')].filter((el) => el.getBoundingClientRect().right > right || el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent);
      });
      expect(fits, 'lines wider than their card').toEqual([]);
      await context.close();
      return;
    }
    await members.locator('.ant-table-row', { hasText: 'amontgomery' }).waitFor();
    await members.locator('.ant-table').first().scrollIntoViewIfNeeded();
    await screenshot(page, `system-depart-users-${lang}-${viewport}`);
    const layout = await tableLayout(members);
    expect(layout.cutCells, 'cells whose text is cut').toEqual([]);
    expect(layout.brokenHeaders, 'headers broken over lines').toEqual([]);
    // the whole table fits: nothing hides under the right-fixed actions
    expect(await cellsUnderActions(members)).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    // on a laptop's narrower screen the long values wrap and the table may scroll, but no time or header breaks
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(() => tableLayout(members)).toMatchObject({ cutCells: [], brokenHeaders: [] });
    await context.close();
  });

  it.each(SCREENSHOT_VIEWS)('list and form screenshots in %s on %s', (lang, viewport) =>
    screenshotListAndForm(browser, server.url, [lang, viewport], { path: '/system/user', signedIn: admin, name: 'system-user', importAsks: true, ready: (page) => waitForRow(page, 'staff11') }),
  );
});
