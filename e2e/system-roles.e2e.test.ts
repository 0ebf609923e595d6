import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages, translate } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { dialog, en, label, openScreen, pickOption, rows, save, waitForRow, type ScreenshotView } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Roles#Pass2';
const ALL_VIEWS: readonly ScreenshotView[] = [
  ['zh-CN', 'desktop'],
  ['en-US', 'desktop'],
  ['zh-CN', 'mobile'],
  ['en-US', 'mobile'],
];
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
let token: string;

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const treeNodes = (drawer: Locator) => drawer.locator('.ant-tree-treenode:not([aria-hidden="true"])');
/** The checkbox of the tree's button with this permission code (the code is its tooltip). */
const buttonNode = (drawer: Locator, code: string) => treeNodes(drawer).filter({ has: drawer.page().getByTitle(code, { exact: true }) }).first().locator('.ant-tree-checkbox');
/** The texts of the tree's nodes that show a permission code (`system:user:add`) or a seeded name (`add (system/user)`). */
const rawCodesIn = async (drawer: Locator) => (await treeNodes(drawer).allInnerTexts()).filter((title) => /\w:\w|\(\w+\/\w+\)/.test(title));

describe('roles screen', () => {
  it('creates a role with the spec rules and gives it permissions from the tree', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/role');
    await waitForRow(page, 'admin');

    await page.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('role.field.roleName'), { exact: true }).fill('G');
    await form.getByLabel(label('role.field.roleCode'), { exact: true }).fill('门卫');
    await save(page);
    await form.getByText(translate('en-US', 'validation.tooShort', { field: label('role.field.roleName'), min: '2' })).waitFor();
    await form.getByText(translate('en-US', 'validation.noChinese', { field: label('role.field.roleCode') })).waitFor();
    await form.getByLabel(label('role.field.roleName'), { exact: true }).fill('Gate guards');
    await form.getByLabel(label('role.field.roleCode'), { exact: true }).fill('gate_guard');
    await pickOption(page, form.getByLabel(label('role.field.roleType'), { exact: true }), label('role.type.deviceAdmin'));
    await form.getByLabel(label('role.field.description'), { exact: true }).fill('Guards at the main gate');
    await save(page);
    await waitForRow(page, 'gate_guard');
    expect(await rows(page).filter({ hasText: 'gate_guard' }).innerText()).toContain(label('role.type.deviceAdmin'));

    // a second role with the same code is refused by the server
    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('role.field.roleName'), { exact: true }).fill('Gate guards 2');
    await dialog(page).getByLabel(label('role.field.roleCode'), { exact: true }).fill('gate_guard');
    await save(page);
    await page.getByText(serverMessages['en-US']['duplicate.roleCode']).first().waitFor();
    await dialog(page).getByRole('button', { name: en('common.cancel') }).click();
    await page.locator('.ant-modal-confirm:visible').getByRole('button', { name: en('crud.discard') }).click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);

    // Permissions: filter the tree, check the system menu, the positions screen and its list button, save.
    await rows(page).filter({ hasText: 'gate_guard' }).getByRole('button', { name: en('role.authorize') }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: en('role.authorizeTitle', { name: 'Gate guards' }) });
    await drawer.locator('.ant-tree-treenode:not([aria-hidden="true"])').first().waitFor();
    await drawer.getByLabel(en('role.filterPermissions')).fill('position');
    const node = (title: string) => drawer.locator('.ant-tree-treenode:not([aria-hidden="true"])', { hasText: title }).first().locator('.ant-tree-checkbox');
    // the buttons read as their translated action, their code only in the tooltip
    expect(await rawCodesIn(drawer)).toEqual([]);
    expect(await drawer.getByTitle('system:position:list', { exact: true }).innerText()).toBe(en('role.button.list'));
    await node(`${text('en-US', 'menu.system.position')}`).click();
    await buttonNode(drawer, 'system:position:list').click();
    await drawer.getByLabel(en('role.filterPermissions')).fill('');
    await node(text('en-US', 'menu.system')).click();
    await screenshot(page, 'system-role-authorize-checked-en-US-desktop');
    await drawer.getByRole('button', { name: en('crud.save') }).click();
    await page.getByText(serverMessages['en-US']['role.permissionsSaved']).first().waitFor();

    const { body: list } = await api<{ records: Array<{ id: string; roleCode: string }> }>(server, 'GET', '/sys/role/list?roleCode=gate_guard', { token });
    const roleId = list.result.records[0]!.id;
    const { body: tree } = await api<{ treeList: Array<{ key: string; title: string; children?: Array<{ key: string; title: string; perms: string | null; children?: Array<{ key: string; perms: string | null }> }> }> }>(server, 'GET', '/sys/permission/queryTreeList', { token });
    const system = tree.result.treeList.find((n) => n.title === 'menu.system')!;
    const position = system.children!.find((n) => n.title === 'menu.system.position')!;
    const listButton = position.children!.find((n) => n.perms === 'system:position:list')!;
    const { body: granted } = await api<string[]>(server, 'GET', `/sys/permission/queryRolePermission?roleId=${roleId}`, { token });
    expect(granted.result.sort()).toEqual([system.key, position.key, listButton.key].sort());
    await context.close();
  });

  it.each(ALL_VIEWS)('screenshots in %s on %s, the tree in the reader\'s language', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/role');
    await waitForRow(page, 'gate_guard');
    await screenshot(page, `system-role-list-${lang}-${viewport}`);
    await rows(page).filter({ hasText: 'gate_guard' }).getByRole('button', { name: text(lang, 'role.authorize') }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: text(lang, 'role.authorizeTitle', { name: 'Gate guards' }) });
    await treeNodes(drawer).first().waitFor();
    // the positions screen and its buttons
    await drawer.getByLabel(text(lang, 'role.filterPermissions')).fill('system:position');
    await drawer.getByTitle('system:position:export', { exact: true }).waitFor();
    expect(await rawCodesIn(drawer)).toEqual([]);
    for (const action of ['list', 'add', 'edit', 'delete', 'export', 'import'] as const) {
      expect(await drawer.getByTitle(`system:position:${action}`, { exact: true }).innerText()).toBe(text(lang, `role.button.${action}`));
    }
    await screenshot(page, `system-role-authorize-${lang}-${viewport}`);
    await context.close();
  });
});
