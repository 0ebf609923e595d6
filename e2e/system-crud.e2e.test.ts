import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import {
  SCREENSHOT_VIEWS,
  confirmPopup,
  deleteRow,
  dialog,
  en,
  exportTo as exportFile,
  firstCells,
  firstPageShown,
  importFrom,
  label,
  noRow,
  openScreen,
  pickOption,
  resetSearch,
  rows,
  save,
  search,
  waitForRow,
} from './crud-page.ts';
import { launchBrowser, newContext, screenshot, signedInState, startAsAdmin, type AdminSession, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Crud#Pass2';

let server: RunningServer;
let browser: Browser;
const downloads = mkdtempSync(join(tmpdir(), 'isps-crud-'));

let call: AdminSession['call'];
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;

beforeAll(async () => {
  ({ server, call } = await startAsAdmin(PASSWORD));
  // More than one page of each list, made through the API.
  for (let i = 1; i <= 12; i++) await call('POST', '/sys/position/add', { code: `E2E-${String(i).padStart(2, '0')}`, name: `Post ${i}`, postRank: '1' });
  for (let i = 1; i <= 11; i++) await call('POST', '/sys/category/add', { name: `Group ${i}`, code: `CAT-${String(i).padStart(2, '0')}` });
  for (let i = 1; i <= 11; i++) await call('POST', '/sys/dict/add', { dictName: `E2E dictionary ${i}`, dictCode: `e2e_dict_${String(i).padStart(2, '0')}` });
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const open = (page: Page, path: string) => openScreen(page, server.url, path);
const exportTo = (page: Page, name: string) => exportFile(page, downloads, name);

describe('system screens built from declarations', () => {
  it('positions: create, refuse a duplicate code, search, sort, page, export, delete, import back', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await open(page, '/system/position');
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    // Batch delete demands a selection.
    await page.getByRole('button', { name: en('crud.batchDelete') }).click();
    await page.getByText(en('crud.selectRecord')).waitFor();

    // Create through the modal form.
    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('position.field.code'), { exact: true }).fill('E2E-NEW');
    await dialog(page).getByLabel(label('position.field.name'), { exact: true }).fill('New post');
    await pickOption(page, dialog(page).getByLabel(label('position.field.postRank'), { exact: true }), 'Manager');
    await save(page);
    await page.getByText(serverMessages['en-US']['crud.added']).first().waitFor();
    await page.getByText(en('crud.total', { total: '13' })).waitFor();
    await waitForRow(page, 'E2E-NEW');
    expect(await rows(page).filter({ hasText: 'E2E-NEW' }).innerText()).toContain('Manager');

    // The same code again is refused with the server's message, shown inside the form; leaving asks first.
    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('position.field.code'), { exact: true }).fill('E2E-NEW');
    await dialog(page).getByLabel(label('position.field.name'), { exact: true }).fill('Copy');
    await pickOption(page, dialog(page).getByLabel(label('position.field.postRank'), { exact: true }), 'Staff');
    await save(page);
    await dialog(page).getByText(serverMessages['en-US']['duplicate.positionCode']).waitFor();
    await dialog(page).getByRole('button', { name: en('common.cancel') }).click();
    await page.locator('.ant-modal-confirm-title', { hasText: en('crud.discardTitle') }).waitFor();
    await page.getByRole('button', { name: en('crud.discard') }).click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);

    // Sort by code, then page through the server.
    await page.locator('th', { hasText: label('position.field.code') }).click();
    await expect.poll(() => firstCells(page, 2).then((c) => c[0])).toBe('E2E-01');
    expect((await firstCells(page, 2)).length).toBe(10);
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => firstCells(page, 2)).toEqual(['E2E-11', 'E2E-12', 'E2E-NEW']);
    await page.locator('th', { hasText: label('position.field.code') }).click();
    await expect.poll(() => firstCells(page, 2).then((c) => c[0])).toBe('E2E-NEW');

    // Search by a searchable field; the export carries the same filter.
    await search(page, label('position.field.code'), 'E2E-NEW');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    const file = await exportTo(page, 'positions.xlsx');

    // Delete with confirmation, then import the exported row back.
    await deleteRow(page, 'E2E-NEW');
    await noRow(page);
    await importFrom(page, file, { total: 1, added: 1, failed: 0 });
    await waitForRow(page, 'E2E-NEW');
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '13' })).waitFor();
    await context.close();
  });

  it('categories: a tree with a parent picked in the form, searched flat, sorted, paged, exported and imported', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await open(page, '/system/category');
    await waitForRow(page, 'Group 1');

    // A child node under a picked parent.
    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('category.field.name'), { exact: true }).fill('Child node');
    await dialog(page).getByLabel(label('category.field.code'), { exact: true }).fill('CAT-CHILD');
    await dialog(page).getByLabel(label('category.field.pid'), { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: /^Group 1$/ }).click();
    await save(page);
    await page.getByText(serverMessages['en-US']['crud.added']).first().waitFor();

    // The tree shows the child under its parent once expanded.
    const parent = rows(page).filter({ hasText: 'CAT-01' });
    await parent.locator('.ant-table-row-expand-icon').click();
    await waitForRow(page, 'CAT-CHILD');

    // Duplicate code refused.
    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('category.field.name'), { exact: true }).fill('Again');
    await dialog(page).getByLabel(label('category.field.code'), { exact: true }).fill('CAT-CHILD');
    await save(page);
    await dialog(page).getByText(serverMessages['en-US']['duplicate.categoryCode']).waitFor();
    await dialog(page).getByRole('button', { name: en('common.cancel') }).click();
    await page.getByRole('button', { name: en('crud.discard') }).click();

    // Eleven roots: two pages; sorting by code descending puts CAT-11 first.
    await page.locator('.ant-pagination-item-2').waitFor();
    await page.locator('th', { hasText: label('category.field.code') }).click();
    await page.locator('th', { hasText: label('category.field.code') }).click();
    await expect.poll(() => firstCells(page, 3).then((c) => c[0])).toBe('CAT-11');
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => firstCells(page, 3).then((c) => c[0])).toBe('CAT-01');

    // A search lists the matching nodes flat; export, delete, import back.
    await search(page, label('category.field.code'), 'CAT-CHILD');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    const file = await exportTo(page, 'categories.xlsx');
    await deleteRow(page, 'CAT-CHILD');
    await noRow(page);
    await importFrom(page, file, { total: 1, added: 1, failed: 0 });
    await waitForRow(page, 'CAT-CHILD');
    await context.close();
  });

  it('dictionaries: create, refuse a duplicate, search, sort, page, items, recycle bin, export and import', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await open(page, '/system/dict');
    await page.locator('.ant-pagination-item-2').waitFor();

    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('dict.field.dictName'), { exact: true }).fill('Door kinds');
    await dialog(page).getByLabel(label('dict.field.dictCode'), { exact: true }).fill('e2e_door_kind');
    await save(page);
    await waitForRow(page, 'e2e_door_kind');

    await page.getByRole('button', { name: en('crud.add') }).click();
    await dialog(page).getByLabel(label('dict.field.dictName'), { exact: true }).fill('Again');
    await dialog(page).getByLabel(label('dict.field.dictCode'), { exact: true }).fill('e2e_door_kind');
    await save(page);
    await dialog(page).getByText(serverMessages['en-US']['duplicate.dictCode']).waitFor();
    await dialog(page).getByRole('button', { name: en('common.cancel') }).click();
    await page.getByRole('button', { name: en('crud.discard') }).click();

    // Sort by code ascending and page.
    await search(page, label('dict.field.dictCode'), 'e2e_');
    await page.getByText(en('crud.total', { total: '12' })).waitFor();
    await page.locator('th', { hasText: label('dict.field.dictCode') }).click();
    await expect.poll(() => firstCells(page, 3).then((c) => c[0])).toBe('e2e_dict_01');
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => firstCells(page, 3)).toEqual(['e2e_dict_11', 'e2e_door_kind']);

    // The dictionary's items open from its row: the generic item screen fixed to this dictionary.
    await search(page, label('dict.field.dictCode'), 'e2e_door_kind');
    await page.getByText(en('crud.total', { total: '1' })).waitFor();
    await rows(page).filter({ hasText: 'e2e_door_kind' }).getByRole('button', { name: en('system.dict.items') }).click();
    const items = dialog(page);
    await items.getByText(en('system.dict.itemsTitle', { name: 'Door kinds' })).waitFor();
    await items.getByRole('button', { name: en('crud.add') }).click();
    const itemForm = dialog(page);
    await itemForm.getByLabel(label('dictItem.field.itemText'), { exact: true }).fill('Glass door');
    await itemForm.getByLabel(label('dictItem.field.itemValue'), { exact: true }).fill('glass');
    await save(page);
    await items.locator('.ant-table-row', { hasText: 'glass' }).waitFor();
    await items.locator('.ant-modal-close').click();

    // Export, delete to the recycle bin, restore, delete again and remove completely, then import back.
    const file = await exportTo(page, 'dictionaries.xlsx');
    await deleteRow(page, 'e2e_door_kind');
    await noRow(page);
    await page.getByRole('button', { name: en('crud.recycleBin') }).click();
    const bin = dialog(page);
    await bin.locator('.ant-table-row', { hasText: 'e2e_door_kind' }).getByRole('button', { name: en('crud.restore') }).click();
    await page.getByText(serverMessages['en-US']['crud.restored']).first().waitFor();
    await bin.locator('.ant-modal-close').click();
    await waitForRow(page, 'e2e_door_kind');
    await deleteRow(page, 'e2e_door_kind');
    await noRow(page);
    await page.getByRole('button', { name: en('crud.recycleBin') }).click();
    await dialog(page).locator('.ant-table-row', { hasText: 'e2e_door_kind' }).getByRole('button', { name: en('crud.deleteCompletely') }).click();
    await confirmPopup(page);
    await expect.poll(() => dialog(page).locator('.ant-table-row', { hasText: 'e2e_door_kind' }).count()).toBe(0);
    await dialog(page).locator('.ant-modal-close').click();
    await importFrom(page, file, { total: 1, added: 1, failed: 0 });
    await waitForRow(page, 'e2e_door_kind');
    await context.close();
  });

  it.each(SCREENSHOT_VIEWS)('list and form screenshots in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await open(page, '/system/position');
    await firstPageShown(page, lang, viewport, 13);
    await screenshot(page, `crud-position-list-${lang}-${viewport}`);
    await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
    await dialog(page).getByRole('button', { name: text(lang, 'crud.save') }).click();
    await dialog(page).locator('.ant-form-item-explain-error').first().waitFor();
    await screenshot(page, `crud-position-form-${lang}-${viewport}`);
    await context.close();
  });
});
