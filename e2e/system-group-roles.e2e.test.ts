import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { SCREENSHOT_VIEWS, dialog, en, label, openScreen, pickTreeNode, save, signIn, waitForRow } from './crud-page.ts';
import { ADMIN_PASSWORD, animationsSettled, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Groups#Pass5';
const MEMBER_PASSWORD = 'Member#Pass6';
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  const call = async (path: string, body: Record<string, unknown>, as = token) => {
    const { body: answer } = await api<{ id: string; token: string }>(server, 'POST', path, { token: as, body });
    if (!answer.success) throw new Error(`${path}: ${answer.message}`);
    return answer.result;
  };
  // a group with one member (no roles of her own) and a user outside it
  const branch = await call('/sys/sysDepart/add', { departName: 'Branch' });
  await call('/sys/sysDepart/add', { departName: 'Warehouse' });
  await call('/sys/user/add', { username: 'mia', realname: 'Mia Member', password: MEMBER_PASSWORD, selecteddeparts: branch.id });
  await call('/sys/user/add', { username: 'olaf', realname: 'Olaf Outsider', password: MEMBER_PASSWORD });
  const first = await apiLogin(server, 'mia', MEMBER_PASSWORD);
  await call('/sys/user/updatePassword', { username: 'mia', oldpassword: MEMBER_PASSWORD, password: PASSWORD, confirmpassword: PASSWORD }, first.result.token);
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// a table's row on a desktop, a card on a phone
const rowOf = (scope: Page | ReturnType<typeof dialog>, name: string) => scope.locator('.ant-table-row, [data-testid="crud-cards"] > li', { hasText: name }).first();
const serverText = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate('en-US', key, params);
/** Drawers slide and dialogs zoom in: screenshots wait for them to come to rest. */
async function settledScreenshot(page: Page, name: string) {
  await animationsSettled(page);
  await screenshot(page, name);
}
const treeNode = (drawer: ReturnType<Page['getByRole']>, title: string) => drawer.locator('.ant-tree-treenode:not([aria-hidden="true"])', { hasText: title }).first();
/** A button of the tree by its permission code, which it shows only as its tooltip. */
const buttonNode = (drawer: ReturnType<Page['getByRole']>, code: string) =>
  drawer.locator('.ant-tree-treenode:not([aria-hidden="true"])').filter({ has: drawer.page().getByTitle(code, { exact: true }) }).first();

describe('group permissions and group roles', () => {
  it('grants a group permissions, makes a group role from them, gives it to a member who then sees the menu and button', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/depart');
    await waitForRow(page, 'Branch');

    // Group permissions: the positions screen with its list and add buttons, under the system menu
    await rowOf(page, 'Branch').getByRole('button', { name: en('groupRoles.permissionsAction'), exact: true }).click();
    const groupDrawer = page.getByRole('dialog').filter({ hasText: en('groupRoles.permissionsTitle', { name: 'Branch' }) });
    await groupDrawer.locator('.ant-tree-treenode:not([aria-hidden="true"])').first().waitFor();
    await groupDrawer.getByLabel(en('role.filterPermissions')).fill('position');
    await treeNode(groupDrawer, en('menu.system.position')).locator('.ant-tree-checkbox').click();
    for (const code of ['system:position:list', 'system:position:add']) await buttonNode(groupDrawer, code).locator('.ant-tree-checkbox').click();
    await groupDrawer.getByLabel(en('role.filterPermissions')).fill('');
    await treeNode(groupDrawer, en('menu.system')).locator('.ant-tree-checkbox').click();
    await settledScreenshot(page, 'system-group-permissions-en-US-desktop');
    await groupDrawer.getByRole('button', { name: en('crud.save') }).click();
    await page.getByText(serverText('depart.permissionsSaved')).first().waitFor();
    await groupDrawer.waitFor({ state: 'hidden' });

    // Group roles: the generic screen fixed to the group, with the spec's rules
    await rowOf(page, 'Branch').getByRole('button', { name: en('groupRoles.action'), exact: true }).click();
    const roles = dialog(page);
    await roles.getByText(en('groupRoles.title', { name: 'Branch' })).waitFor();
    await roles.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('departRole.field.roleName'), { exact: true }).fill('B');
    await form.getByLabel(label('departRole.field.roleCode'), { exact: true }).fill('收银');
    await save(page);
    await form.getByText(translate('en-US', 'validation.tooShort', { field: label('departRole.field.roleName'), min: '2' })).waitFor();
    await form.getByText(translate('en-US', 'validation.noChinese', { field: label('departRole.field.roleCode') })).waitFor();
    await form.getByLabel(label('departRole.field.roleName'), { exact: true }).fill('Branch clerks');
    await form.getByLabel(label('departRole.field.roleCode'), { exact: true }).fill('branch_clerk');
    await form.getByLabel(label('departRole.field.description'), { exact: true }).fill('Keep the position list');
    await save(page);
    await page.getByText(serverText('crud.added')).first().waitFor();
    await rowOf(roles, 'branch_clerk').waitFor();
    await settledScreenshot(page, 'system-group-roles-en-US-desktop');

    // Authorize: the tree holds only what the group holds
    await rowOf(roles, 'branch_clerk').getByRole('button', { name: en('role.authorize'), exact: true }).click();
    const roleDrawer = page.getByRole('dialog').filter({ hasText: en('role.authorizeTitle', { name: 'Branch clerks' }) });
    await roleDrawer.locator('.ant-tree-treenode:not([aria-hidden="true"])').first().waitFor();
    await roleDrawer.getByRole('button', { name: en('role.expandAll') }).click();
    await buttonNode(roleDrawer, 'system:position:add').waitFor();
    await expect.poll(() => roleDrawer.locator('.ant-tree-treenode:not([aria-hidden="true"])').count()).toBe(4);
    expect(await roleDrawer.getByTitle('system:user:list').count()).toBe(0);
    expect(await roleDrawer.locator('.ant-tree-treenode:not([aria-hidden="true"])').allInnerTexts()).toEqual([
      en('menu.system'),
      en('menu.system.position'),
      en('role.button.list'),
      en('role.button.add'),
    ]);
    await roleDrawer.getByRole('button', { name: en('role.checkAll'), exact: true }).click();
    await expect.poll(() => roleDrawer.locator('.ant-tree-checkbox-checked').count()).toBe(4);
    await settledScreenshot(page, 'system-group-role-authorize-en-US-desktop');
    await roleDrawer.getByRole('button', { name: en('crud.save') }).click();
    await page.getByText(serverText('role.permissionsSaved')).first().waitFor();
    await roleDrawer.waitFor({ state: 'hidden' });

    // Users: the selector offers only the group's members
    await rowOf(roles, 'branch_clerk').getByRole('button', { name: en('groupRoles.users'), exact: true }).click();
    const holders = dialog(page);
    await holders.getByText(en('groupRoles.usersTitle', { name: 'Branch clerks' })).waitFor();
    await holders.getByRole('button', { name: en('groupRoles.give') }).click();
    const selector = dialog(page);
    await rowOf(selector, 'mia').waitFor();
    expect(await selector.locator('.ant-table-row').count()).toBe(1);
    expect(await selector.locator('.ant-table-row', { hasText: 'olaf' }).count()).toBe(0);
    await rowOf(selector, 'mia').locator('.ant-checkbox-input').check();
    await settledScreenshot(page, 'system-group-role-users-select-en-US-desktop');
    await selector.getByRole('button', { name: en('common.ok') }).click();
    await page.getByText(serverText('departRole.usersSaved')).first().waitFor();
    await rowOf(holders, 'Mia Member').waitFor();
    await settledScreenshot(page, 'system-group-role-users-en-US-desktop');
    await context.close();

    // the member holds the positions menu and its add button through the group role alone
    const memberContext = await newContext(browser, { lang: 'en-US' });
    const member = await memberContext.newPage();
    // her own sign-in, once the group role has been given to her
    await signIn(member, server.url, '/system/position', 'mia', PASSWORD);
    await member.locator('.ant-menu').getByText(en('menu.system.position'), { exact: true }).first().waitFor();
    await member.getByRole('button', { name: en('crud.add') }).waitFor();
    expect(await member.locator('.ant-menu').getByText(en('menu.system.user'), { exact: true }).count()).toBe(0);
    expect(await member.getByRole('button', { name: en('crud.import') }).count()).toBe(0);
    await settledScreenshot(member, 'system-group-role-member-en-US-desktop');
    await memberContext.close();
  });

  it("gives the group a menu's data rule, its role that rule, and the member then lists only her own rows", async () => {
    const adminToken = (await apiLogin(server, 'admin', PASSWORD)).result.token;
    const miaToken = (await apiLogin(server, 'mia', PASSWORD)).result.token;
    const post = async (token: string, path: string, body: Record<string, unknown>) => {
      const { body: answer } = await api<{ id: string }>(server, 'POST', path, { token, body });
      if (!answer.success) throw new Error(`${path}: ${answer.message}`);
      return answer.result;
    };
    const { body: menus } = await api<{ records: Array<{ id: string }> }>(server, 'GET', '/sys/permission/list?url=/system/position&pageNo=1&pageSize=10', { token: adminToken });
    await post(adminToken, '/sys/permission/dataRule/add', { permissionId: menus.result.records[0]?.id, ruleName: 'Own posts', ruleColumn: 'createBy', ruleConditions: 'eq', ruleValue: '#{sys_user_code}' });
    // codes of this try (a retried test finds the rows of the one before)
    const run = Date.now().toString(36);
    await post(adminToken, '/sys/position/add', { code: `P-ADMIN-${run}`, name: 'Admin post', postRank: '1' });
    await post(miaToken, '/sys/position/add', { code: `P-MIA-${run}`, name: 'Mia post', postRank: '1' });

    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/depart');
    await waitForRow(page, 'Branch');
    const grant = async (title: string) => {
      const rules = page.getByRole('dialog').filter({ hasText: title });
      // the menus offered are the group's
      await pickTreeNode(page, rules.getByLabel(en('dataRuleScreen.menu'), { exact: true }), en('menu.system.position'));
      await rules.getByRole('checkbox', { name: /Own posts/ }).first().check();
      await settledScreenshot(page, `system-${title.startsWith('Data rules group') ? 'group' : 'group-role'}-data-rules-en-US-desktop`);
      await rules.getByRole('button', { name: en('crud.save') }).click();
      await page.getByText(serverText('dataRule.saved')).first().waitFor();
      await rules.getByRole('button', { name: en('common.cancel') }).click();
      await rules.waitFor({ state: 'hidden' });
    };
    await rowOf(page, 'Branch').getByRole('button', { name: en('dataRuleScreen.roleAction'), exact: true }).click();
    await grant(en('dataRuleScreen.groupTitle', { name: 'Branch' }));
    await rowOf(page, 'Branch').getByRole('button', { name: en('groupRoles.action'), exact: true }).click();
    const roles = dialog(page);
    await rowOf(roles, 'branch_clerk').getByRole('button', { name: en('dataRuleScreen.roleAction'), exact: true }).click();
    await grant(en('dataRuleScreen.roleTitle', { name: 'Branch clerks' }));
    await context.close();

    const memberContext = await newContext(browser, { lang: 'en-US' });
    const member = await memberContext.newPage();
    // her own sign-in, once the group role has been given to her
    await signIn(member, server.url, '/system/position', 'mia', PASSWORD);
    await waitForRow(member, `P-MIA-${run}`);
    expect(await member.locator('.ant-table-row', { hasText: 'Admin post' }).count()).toBe(0);
    expect(await member.locator('.ant-table-row', { hasText: 'Mia post' }).count()).toBe(await member.locator('.ant-table-row').count());
    await memberContext.close();
  });

  it.each(SCREENSHOT_VIEWS)('screenshots in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/depart');
    await waitForRow(page, 'Branch');
    await settledScreenshot(page, `system-group-list-${lang}-${viewport}`);
    await rowOf(page, 'Branch').getByRole('button', { name: text(lang, 'groupRoles.action'), exact: true }).click();
    const roles = dialog(page);
    await rowOf(roles, 'branch_clerk').waitFor();
    await settledScreenshot(page, `system-group-roles-${lang}-${viewport}`);
    await rowOf(roles, 'branch_clerk').getByRole('button', { name: text(lang, 'role.authorize'), exact: true }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: text(lang, 'role.authorizeTitle', { name: 'Branch clerks' }) });
    await drawer.locator('.ant-tree-checkbox-checked').first().waitFor();
    await drawer.getByRole('button', { name: text(lang, 'role.expandAll'), exact: true }).click();
    await buttonNode(drawer, 'system:position:add').waitFor();
    await settledScreenshot(page, `system-group-role-authorize-${lang}-${viewport}`);
    await context.close();
  });
});
