import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { SCREENSHOT_VIEWS, dialog, en, label, openScreen, pickOption, pickTreeNode, rows, save, search, signIn, waitForRow } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Menus#Pass3';
const CLERK_PASSWORD = 'Clerk#Pass4';
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
let token: string;

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>, as = token) => {
    const { body: answer } = await api(server, method, path, { token: as, body });
    if (!answer.success) throw new Error(`${path}: ${answer.message}`);
    return answer.result as Record<string, unknown>;
  };
  // a role that may list and add positions, and a clerk holding it
  const role = await call('POST', '/sys/role/add', { roleName: 'Position clerk', roleCode: 'position_clerk', roleType: 1 });
  type Node = { key: string; title: string; perms: string | null; children?: Node[] };
  const tree = (await call('GET', '/sys/permission/queryTreeList')) as unknown as { treeList: Node[] };
  const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
  const wanted = flat(tree.treeList).filter((n) => ['system:position:list', 'system:position:add'].includes(n.perms ?? '') || ['menu.system', 'menu.system.position'].includes(n.title));
  await call('POST', '/sys/permission/saveRolePermission', { roleId: role.id, permissionIds: wanted.map((w) => w.key).join(',') });
  await call('POST', '/sys/user/add', { username: 'clerk', realname: 'Clerk', password: CLERK_PASSWORD, selectedroles: role.id });
  const first = await apiLogin(server, 'clerk', CLERK_PASSWORD);
  await api(server, 'POST', '/sys/user/updatePassword', { token: first.result.token, body: { username: 'clerk', oldpassword: CLERK_PASSWORD, password: PASSWORD, confirmpassword: PASSWORD } });
  const clerk = (await apiLogin(server, 'clerk', PASSWORD)).result.token;
  await call('POST', '/sys/position/add', { code: 'P-CLERK', name: 'Made by the clerk', postRank: '1' }, clerk);
  await call('POST', '/sys/position/add', { code: 'P-ADMIN', name: 'Made by the admin', postRank: '1' });
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name }).first();

describe('menus, permissions and data rules', () => {
  it('adds a menu with an icon from the picker, shown translated in the tree', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/permission');
    // seeded menu names are keys; the screen shows their text
    await waitForRow(page, en('menu.system'));
    await page.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('permission.field.name'), { exact: true }).fill('Reports');
    await form.getByLabel(label('permission.field.url'), { exact: true }).fill('/reports');
    await form.getByLabel(label('permission.field.component'), { exact: true }).fill('layouts/RouteView');
    const icon = form.getByLabel(label('permission.field.icon'), { exact: true });
    await icon.click();
    await icon.fill('bar-chart');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^bar-chart$/ }).first().click();
    await save(page);
    await page.getByText(translate('en-US', 'crud.added')).first().waitFor();
    await waitForRow(page, 'Reports');
    await expect.poll(() => rowOf(page, 'Reports').locator('.anticon').count()).toBeGreaterThan(0);
    await screenshot(page, 'system-permission-en-US-desktop');
    // the administrator holds the new menu at once: it is in the side menu after a reload
    await page.reload();
    await page.locator('.ant-menu').getByText('Reports', { exact: true }).first().waitFor();
    await context.close();
  });

  it("restricts a role's list to its own rows with a data rule set on the menu and granted on the role", async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/permission');
    await search(page, label('permission.field.url'), '/system/position');
    await waitForRow(page, en('menu.system.position'));
    await rowOf(page, en('menu.system.position')).getByRole('button', { name: label('dataRule.title'), exact: true }).click();
    const rules = dialog(page);
    await rules.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('dataRule.field.ruleName'), { exact: true }).fill('Own rows');
    await form.getByLabel(label('dataRule.field.ruleColumn'), { exact: true }).fill('createBy');
    await form.getByLabel(label('dataRule.field.ruleValue'), { exact: true }).fill('#{sys_user_code}');
    await save(page);
    await page.getByText(translate('en-US', 'crud.added')).first().waitFor();
    await expect.poll(() => rules.locator('.ant-table-row').first().innerText()).toContain('Own rows');
    await screenshot(page, 'system-permission-data-rules-en-US-desktop');
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/system/role`);
    await waitForRow(page, 'Position clerk');
    await rowOf(page, 'Position clerk').getByRole('button', { name: en('dataRuleScreen.roleAction') }).click();
    const grant = dialog(page);
    await pickTreeNode(page, grant.getByLabel(en('dataRuleScreen.menu'), { exact: true }), en('menu.system.position'));
    await grant.getByRole('checkbox', { name: /Own rows/ }).check();
    await screenshot(page, 'system-role-data-rules-en-US-desktop');
    await grant.getByRole('button', { name: en('crud.save') }).click();
    await page.getByText(translate('en-US', 'dataRule.saved')).first().waitFor();
    await context.close();

    // the clerk now sees only the positions the clerk made
    const clerkContext = await newContext(browser, { lang: 'en-US' });
    const clerkPage = await clerkContext.newPage();
    await signIn(clerkPage, server.url, '/system/position', 'clerk', PASSWORD);
    await waitForRow(clerkPage, 'P-CLERK');
    await expect.poll(() => rows(clerkPage).count()).toBe(1);
    await clerkContext.close();
  });

  it.each(SCREENSHOT_VIEWS)('menu screen and form in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/permission');
    await waitForRow(page, text(lang, 'menu.system'));
    await screenshot(page, `system-permission-${lang}-${viewport}`);
    await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
    await pickOption(page, dialog(page).getByLabel(label('permission.field.menuType', lang), { exact: true }), label('permission.type.button', lang));
    await screenshot(page, `system-permission-form-${lang}-${viewport}`);
    await context.close();
  });
});
