import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sheetRows } from '../apps/server/src/test/crud-helpers.ts';
import { samples, type Fixtures } from '../apps/server/src/test/entity-samples.ts';
import { crudPath, ellipsis, entityActions, entityDeclarations, formFieldsOf, importInitialFields, type EntityDeclaration, type MatchKind } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { dialog, en, exportTo, label, openInApp, pageArea, pickOption, pickTime, pickTreeNode, rows, signIn } from './crud-page.ts';
import { launchBrowser, newContext, responseTo, startAsAdmin, type AdminSession, type RunningServer } from './harness.ts';

/**
 * Every declared screen driven from its declaration, the way a person uses it: searched by every search field (the
 * field filled with a value of a known row; the row is read in the table, the list call carries the filter and
 * every row it answered matches it), sorted by every sortable column, paged, and (where the screen offers it) its
 * row exported, deleted with confirmation and imported back, then edited (else exported, edited and deleted). Screens embedded in another (a job's run history, a
 * user's agents, a menu's data rules, a group's roles) are used where a person opens them.
 */
type Row = Record<string, unknown> & { id: string };
const PASSWORD = 'Search#Pass7';
const downloads = mkdtempSync(join(tmpdir(), 'isps-screens-'));

let server: RunningServer;
let browser: Browser;
const fixtures: Fixtures = { dictId: '', departId: '', permissionId: '', users: [] };
const names = { group: 'Search branch', parentCategory: 'Search parent', dict: 'Search dictionary', role: 'Search role 1' };

let call: AdminSession['call'];

const declaration = (name: string): EntityDeclaration => {
  const found = entityDeclarations.find((e) => e.name === name);
  if (!found) throw new Error(`no declaration ${name}`);
  return found;
};

async function listed(entity: EntityDeclaration, query: Record<string, string>): Promise<Row[]> {
  const params = new URLSearchParams({ pageNo: '1', pageSize: '100', ...query });
  const page = await call<{ records: Row[] }>('GET', `${crudPath(entity, 'list')}?${params.toString()}`);
  return page.records;
}

/** One screen to search: where a person finds it and which of its rows every search must find. */
interface Screen {
  entity: string;
  /** opens the screen and answers the region holding its search form and table */
  open: (page: Page) => Promise<Locator>;
  /** the row every search looks for */
  target: () => Promise<Row>;
  /** search fields the screen fixes (not in its form) */
  fixed?: readonly string[];
  /** option texts a person picks where the row carries no `<field>_dictText` */
  optionTexts?: Record<string, string>;
}

/** A blank page of the console between two screens: the next screen mounts afresh even where it was the last one. */
const BETWEEN = '/exception/404';

/** Opens a menu screen inside the signed-in console, as from the menu, and answers its page area. */
const topLevel = (path: string) => async (page: Page) => {
  await openInApp(page, path);
  const area = pageArea(page, path);
  await area.getByRole('search').waitFor();
  return area;
};

/** Opens an embedded screen from a row's action button and answers its dialog. */
const fromRow = (path: string, rowText: string, action: string, menu?: string, narrow?: [fieldLabel: string, value: string]) => async (page: Page) => {
  const main = await topLevel(path)(page);
  if (narrow) {
    await main.getByRole('search').getByLabel(narrow[0], { exact: true }).fill(narrow[1]);
    await main.getByRole('search').getByRole('button', { name: en('crud.search') }).click();
  }
  const row = rows(main).filter({ hasText: rowText }).first();
  await row.waitFor();
  if (menu) {
    await row.getByRole('button', { name: menu }).click();
    await page.getByRole('menuitem', { name: action }).click();
  } else {
    await row.getByRole('button', { name: action, exact: true }).click();
  }
  return embeddedScreen(page);
};

/** The dialog holding an embedded screen (not the import report or a form opened over it). */
async function embeddedScreen(page: Page): Promise<Locator> {
  const embedded = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.getByRole('search') });
  await embedded.getByRole('search').waitFor();
  return embedded;
}

const byField = (entity: string, field: string, value: string) => async () => {
  const found = (await listed(declaration(entity), {})).find((r) => String(r[field]) === value);
  if (!found) throw new Error(`no ${entity} row with ${field} ${value}`);
  // a list shows an ID number by its last four; a person searches by the whole number, which the row's detail holds
  const masked = Object.entries(declaration(entity).fields).filter(([, f]) => f.maskedInLists).map(([name]) => name);
  if (masked.length === 0) return found;
  const whole = await call<Row>('GET', `${crudPath(declaration(entity), 'queryById')}?id=${String(found.id)}`);
  return { ...found, ...Object.fromEntries(masked.map((name) => [name, whole[name]])) };
};

// Screens whose rows others depend on come after them: a round trip gives the row a new id.
const screens: Screen[] = [
  {
    entity: 'userAgent',
    // narrowed by part of the name: the page keeps its lists 30 s, and the user screen next searches the whole name,
    // which must reach the server
    open: fromRow('/system/user', 'sample901', en('userScreen.agent'), en('userScreen.more'), [label('user.field.username'), 'ample901']),
    target: async () => (await listed(declaration('userAgent'), { userName: 'sample901' }))[0] as Row,
    fixed: ['userName'],
    optionTexts: { agentUserName: 'Sample 902' },
  },
  { entity: 'user', open: topLevel('/system/user'), target: byField('user', 'username', 'sample901') },
  { entity: 'role', open: topLevel('/system/role'), target: byField('role', 'roleCode', 'sample_role_901') },
  {
    entity: 'dataRule',
    open: async (page) => {
      const main = await topLevel('/system/permission')(page);
      await main.getByRole('search').getByLabel(label('permission.field.url'), { exact: true }).fill('/sample/902');
      await main.getByRole('search').getByRole('button', { name: en('crud.search') }).click();
      return fromRowHere(page, main, 'Sample menu 902', label('dataRule.title'));
    },
    target: byField('dataRule', 'ruleName', 'Sample rule 901'),
    fixed: ['permissionId'],
  },
  { entity: 'permission', open: topLevel('/system/permission'), target: async () => (await listed(declaration('permission'), { url: '/sample/901' }))[0] as Row },
  {
    entity: 'departRole',
    open: async (page) => {
      const main = await topLevel('/system/depart')(page);
      return fromRowHere(page, main, names.group, en('groupRoles.action'));
    },
    target: byField('departRole', 'roleCode', 'sample_group_role_901'),
    fixed: ['departId'],
  },
  { entity: 'depart', open: topLevel('/system/depart'), target: async () => (await listed(declaration('depart'), { departName: 'Sample group 901' }))[0] as Row },
  {
    entity: 'dataLog',
    open: topLevel('/system/dataLog'),
    target: async () => {
      const post = await byField('position', 'code', 'SAMPLE901')();
      return (await listed(declaration('dataLog'), { dataId: post.id }))[0] as Row;
    },
  },
  { entity: 'position', open: topLevel('/system/position'), target: byField('position', 'code', 'SAMPLE901') },
  {
    entity: 'category',
    open: topLevel('/system/category'),
    target: async () => (await listed(declaration('category'), { code: 'SC901' }))[0] as Row,
    optionTexts: { pid: names.parentCategory },
  },
  { entity: 'dictItem', open: topLevel('/system/dictItem'), target: byField('dictItem', 'itemValue', 'v901'), optionTexts: { dictId: names.dict } },
  { entity: 'dict', open: topLevel('/system/dict'), target: byField('dict', 'dictCode', 'sample_dict_901') },
  {
    entity: 'log',
    open: async (page) => {
      const main = await topLevel('/system/log')(page);
      await main.getByRole('tab', { name: label('log.type.operation') }).click();
      await main.getByRole('tabpanel').getByRole('search').waitFor();
      return main.getByRole('tabpanel');
    },
    target: async () => (await listed(declaration('log'), { logType: '2', content: '*position*' }))[0] as Row,
    fixed: ['logType'],
  },
  {
    entity: 'jobLog',
    open: fromRow('/system/quartzJob', 'Sample job 901', label('jobLog.title')),
    target: async () => {
      const job = await byField('quartzJob', 'description', 'Sample job 901')();
      return (await listed(declaration('jobLog'), { jobId: job.id }))[0] as Row;
    },
    fixed: ['jobId'],
  },
  { entity: 'quartzJob', open: topLevel('/system/quartzJob'), target: byField('quartzJob', 'description', 'Sample job 901') },
  { entity: 'visitor', open: topLevel('/vistor/list'), target: byField('visitor', 'name', 'Sample visitor 901'), optionTexts: { userId: 'Sample 902', departId: names.group } },
];

async function fromRowHere(page: Page, main: Locator, rowText: string, action: string): Promise<Locator> {
  const row = rows(main).filter({ hasText: rowText }).first();
  await row.waitFor();
  await row.getByRole('button', { name: action, exact: true }).click();
  return embeddedScreen(page);
}

/** Texts of the catalogues or of the contract's labels, whichever holds the key. */
const anyText = (key: string) => label(key) !== key ? label(key) : text('en-US', key as Parameters<typeof text>[1]);

const two = (n: number) => String(n).padStart(2, '0');
/** The day a time falls on where the browser runs (the same machine). */
function localDay(iso: unknown): string {
  const d = new Date(String(iso));
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** What a person does with one search field, and what the list call must then carry and answer. */
async function searchOnce(page: Page, region: Locator, screen: Screen, entity: EntityDeclaration, field: string, match: MatchKind, target: Row) {
  const form = region.getByRole('search');
  const declared = entity.fields[field];
  const fieldLabel = headerText(entity, field);
  const control = form.getByLabel(fieldLabel, { exact: true });
  const value = target[field];
  const listPath = crudPath(entity, 'list');
  const param = match === 'range' ? `${field}_begin` : field;
  const carries = (r: Request) => new URL(r.url()).pathname.endsWith(listPath) && new URL(r.url()).searchParams.has(param);
  const widget = declared?.widget.kind;
  const kind = declared?.kind ?? (field.endsWith('Time') ? 'datetime' : 'string');
  /** the option a select must show before the search (a pick lost on a busy machine is picked again) */
  let picked: string | null = null;

  if (match === 'range') {
    const [from, to] = kind === 'datetime' || kind === 'date' ? [localDay(value), localDay(value)] : [String(value), String(value)];
    const item = form.locator('.ant-form-item').filter({ has: page.getByText(fieldLabel, { exact: true }) });
    const end = item.getByPlaceholder(en('crud.rangeTo'), { exact: true });
    for (const [input, typed] of [[control, from], [end, to]] as const) {
      await input.click();
      await input.fill(typed);
      await input.press('Enter');
    }
    await page.locator('.ant-picker-dropdown:visible').waitFor({ state: 'hidden' });
  } else if (widget === 'select' || widget === 'entitySelect' || widget === 'options' || widget === 'switch') {
    const optionText =
      screen.optionTexts?.[field] ??
      (typeof target[`${field}_dictText`] === 'string' && target[`${field}_dictText`] !== ''
        ? String(target[`${field}_dictText`]).split(',')[0]
        : widget === 'options' && declared?.widget.kind === 'options'
          ? anyText(declared.widget.options.find((o) => o.value === String(value))?.label ?? '')
          : widget === 'switch'
            ? en(Number(value) === 1 ? 'crud.yes' : 'crud.no')
            : String(value));
    picked = optionText ?? '';
    if (widget === 'entitySelect') {
      await control.click();
      await control.fill(optionText ?? '');
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: optionText ?? '' }).first().click();
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    } else {
      await pickOption(page, control, optionText ?? '');
    }
  } else if (widget === 'treeSelect') {
    const nodeText = screen.optionTexts?.[field] ?? String(target[`${field}_dictText`] ?? '').split(',')[0] ?? '';
    await pickTreeNode(page, control, nodeText);
  } else {
    await control.fill(String(Array.isArray(value) ? value[0] : String(value).split(',')[0]));
  }
  const selectBox = control.locator('xpath=ancestor::*[contains(concat(" ", @class, " "), " ant-select ")][1]');
  if (picked !== null && widget !== 'entitySelect') {
    for (let attempt = 0; attempt < 3 && !(await selectBox.innerText()).includes(picked); attempt++) await pickOption(page, control, picked);
    expect(await selectBox.innerText(), `${entity.name}.${field} shows the picked option`).toContain(picked);
  }
  // every list call of this search, for the failure message
  const calls: string[] = [];
  const seen = (r: Request) => void (new URL(r.url()).pathname.endsWith(listPath) && calls.push(r.url()));
  page.on('request', seen);
  const requested = page.waitForRequest(carries, { timeout: 15_000 });
  await form.getByRole('button', { name: en('crud.search') }).click();
  const request = await requested.catch(async (error: unknown) => {
    const shows = picked === null ? await control.inputValue().catch(() => '?') : await selectBox.innerText().catch(() => '?');
    throw new Error(`${entity.name}.${field}: the search sent no list call with ${param}; the control shows "${shows}"; list calls: ${calls.join(' | ') || 'none'} (${String(error)})`);
  });
  page.off('request', seen);
  const response = await request.response();
  if (!response) throw new Error(`${entity.name}.${field}: the list call with ${param} got no answer`);
  const body = (await response.json()) as { success: boolean; result: { records: Row[]; total: number } };
  expect(body.success, `${entity.name}.${field}`).toBe(true);
  const records = body.result.records;
  // the row is on the first page unless more than a page matched
  if (body.result.total <= records.length) expect(records.map((r) => r.id), `${entity.name}.${field} finds its row`).toContain(target.id);
  else expect(records.length).toBe(10);
  const sent = new URL(response.url()).searchParams;
  for (const record of records) {
    const got = record[field];
    if (match === 'range') {
      const begin = sent.get(`${field}_begin`) ?? '';
      const finish = sent.get(`${field}_end`) ?? '';
      if (kind === 'datetime' || kind === 'date') {
        expect(Date.parse(String(got))).toBeGreaterThanOrEqual(Date.parse(begin));
        expect(Date.parse(String(got))).toBeLessThanOrEqual(Date.parse(finish));
      } else {
        expect(Number(got)).toBeGreaterThanOrEqual(Number(begin));
        expect(Number(got)).toBeLessThanOrEqual(Number(finish));
      }
    } else if (match === 'contains') {
      expect(String(got ?? '').toLowerCase(), `${entity.name}.${field}`).toContain(String(sent.get(field)).toLowerCase());
    } else if (declared?.maskedInLists) {
      // the list shows the last four of the number searched for
      expect(String(got ?? ''), `${entity.name}.${field}`).toMatch(new RegExp(`${String(sent.get(field)).slice(-4)}$`));
    } else if (declared?.link) {
      expect(String(got ?? '').split(','), `${entity.name}.${field}`).toContain(sent.get(field));
    } else {
      expect(String(got ?? ''), `${entity.name}.${field}`).toBe(sent.get(field));
    }
  }
  // the person reads the row in the table
  await expect.poll(() => regionRows(region).count()).toBe(records.length);
  await form.getByRole('button', { name: en('crud.reset') }).click();
}

const regionRows = (region: Locator) => region.locator('.ant-table-tbody tr.ant-table-row');
const isList = (entity: EntityDeclaration) => (r: Response) => new URL(r.url()).pathname.endsWith(crudPath(entity, 'list'));
/** A field's label as the console shows it: declared, or the shared one of an audit field. */
const headerText = (entity: EntityDeclaration, field: string) => label(entity.fields[field]?.label ?? `crud.field.${field}`);
/** Screens given more than a page of rows: each must offer the next page, and every other screen must not. */
const paged = new Set(['user', 'role', 'position', 'dictItem', 'dataRule', 'departRole', 'visitor', 'log', 'dataLog', 'dict', 'permission', 'depart', 'category']);

/** Fills a text search field, searches, and answers the list call it made. */
async function searchText(page: Page, region: Locator, entity: EntityDeclaration, field: string, value: string) {
  const form = region.getByRole('search');
  await form.getByLabel(headerText(entity, field), { exact: true }).fill(value);
  const answered = responseTo(page, (r) => isList(entity)(r) && new URL(r.url()).searchParams.get(field) === value);
  await form.getByRole('button', { name: en('crud.search') }).click();
  return (await (await answered).json()) as { success: boolean; result: { records: Row[]; total: number } };
}

/** Every sortable column, clicked until the list was asked for both orders. */
async function sortEvery(page: Page, region: Locator, entity: EntityDeclaration) {
  for (const field of entity.sortable.filter((f) => entity.columns.includes(f))) {
    const header = region.locator('.ant-table-thead th').filter({ has: page.getByText(headerText(entity, field), { exact: true }) }).first();
    const seen = new Set<string>();
    for (let click = 0; click < 3 && seen.size < 2; click++) {
      const answered = responseTo(page, isList(entity));
      await header.click();
      const response = await answered;
      expect(((await response.json()) as { success: boolean }).success, `${entity.name} sorted by ${field}`).toBe(true);
      const sent = new URL(response.url()).searchParams;
      if (sent.get('column') === field) seen.add(sent.get('order') ?? '');
    }
    expect([...seen].sort(), `${entity.name} sorted by ${field}`).toEqual(['asc', 'desc']);
  }
}

/** The next page is asked for and shown, then the first again; a screen with one page of rows offers none. */
async function nextPage(page: Page, region: Locator, entity: EntityDeclaration) {
  const next = region.locator('.ant-pagination-next');
  await region.locator('.ant-pagination').first().waitFor();
  const open = async () => (await next.count()) > 0 && !((await next.getAttribute('class')) ?? '').includes('disabled');
  await expect.poll(open, { message: paged.has(entity.name) ? `${entity.name} has a next page` : `${entity.name} fits one page` }).toBe(paged.has(entity.name));
  if (paged.has(entity.name)) {
    const answered = responseTo(page, (r) => isList(entity)(r) && new URL(r.url()).searchParams.get('pageNo') === '2');
    await next.click();
    const body = (await (await answered).json()) as { result: { records: Row[] } };
    expect(body.result.records.length).toBeGreaterThan(0);
    await expect.poll(() => regionRows(region).count()).toBe(body.result.records.length);
    await region.locator('.ant-pagination-prev').click();
  }
}

/** The text search field a screen's row is found by: its label, a unique field, or another text field. */
function narrowFieldOf(entity: EntityDeclaration, screen: Screen): string | undefined {
  return [entity.labelField, ...(entity.unique ?? []).map((u) => u.field), ...Object.keys(entity.search)].find(
    (f) => entity.search[f] === 'contains' && entity.fields[f]?.widget.kind === 'input' && !screen.fixed?.includes(f),
  );
}

/** A form time ('YYYY-MM-DD HH:mm:ss', the browser's zone) one day later. */
function dayLater(shown: string): string {
  const d = new Date(new Date(shown.replace(' ', 'T')).getTime() + 86_400_000);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * Where the screen edits: a text field of the row changed in the form, saved, and read in the table. A screen with
 * no text to edit (an agent setting: users, times and a status) has its last time moved a day on instead.
 */
async function editOnce(page: Page, region: Locator, screen: Screen, entity: EntityDeclaration, target: Row, narrowed: boolean) {
  if (!entityActions(entity).includes('edit')) return;
  const texts = [entity.labelField, ...formFieldsOf(entity)].filter((f) => entity.fields[f]?.widget.kind === 'input');
  const times = formFieldsOf(entity).filter((f) => entity.fields[f]?.kind === 'datetime');
  const field = narrowFieldOf(entity, screen);
  let row: Locator;
  if (field) {
    const value = String(target[field]);
    if (!narrowed) {
      await region.getByRole('search').getByLabel(headerText(entity, field), { exact: true }).fill(value);
      await region.getByRole('search').getByRole('button', { name: en('crud.search') }).click();
    }
    row = regionRows(region).filter({ hasText: value }).first();
  } else {
    // no text field to search by: the screen is embedded and fixed to its one row (a user's agent setting)
    await expect.poll(() => regionRows(region).count(), { message: `${entity.name} shows its one row` }).toBe(1);
    row = regionRows(region).first();
  }
  await row.getByRole('button', { name: en('crud.edit'), exact: true }).click();
  const form = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ has: page.getByRole('button', { name: en('crud.save') }) }).last();
  await form.getByRole('button', { name: en('crud.save') }).waitFor();
  let changed: string | null = null;
  for (const candidate of texts) {
    const input = form.getByLabel(headerText(entity, candidate), { exact: true });
    if ((await input.count()) !== 1 || (await input.isDisabled())) continue;
    const next = `${await input.inputValue()} edited`;
    // a field whose rules refuse the new text (a user name takes no spaces) is not the one to try
    if (!entity.fields[candidate]?.schema.safeParse(next).success) continue;
    changed = next;
    await input.fill(changed);
    break;
  }
  const lastTime = times.at(-1);
  if (changed === null && lastTime) {
    const input = form.getByLabel(headerText(entity, lastTime), { exact: true });
    changed = dayLater(await input.inputValue());
    await pickTime(page, input, changed);
  }
  expect(changed, `${entity.name} has a field to edit`).not.toBeNull();
  const saved = responseTo(page, (r) => new URL(r.url()).pathname.endsWith(crudPath(entity, 'edit')));
  await form.getByRole('button', { name: en('crud.save') }).click();
  expect(((await (await saved).json()) as { success: boolean }).success, `${entity.name} edited`).toBe(true);
  await form.waitFor({ state: 'hidden' });
  // a list cuts a long text at 25 characters (SPEC section 9)
  await expect.poll(() => regionRows(region).filter({ hasText: ellipsis(changed ?? '') }).count(), { message: `${entity.name} shows the edit` }).toBe(1);
}

/** Where the screen deletes and no round trip did: the row deleted once the person confirms, and gone from the list. */
async function deleteOnce(page: Page, region: Locator, entity: EntityDeclaration, target: Row) {
  if (!entityActions(entity).includes('delete')) return;
  const before = await regionRows(region).count();
  const row = regionRows(region).filter({ hasText: String(target[entity.labelField] ?? '') }).first();
  await row.getByRole('button', { name: en('crud.delete') }).click();
  // nothing is deleted until the confirmation
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.cancel') }).click();
  expect(await regionRows(region).count()).toBe(before);
  await row.getByRole('button', { name: en('crud.delete') }).click();
  const answered = responseTo(page, (r) => new URL(r.url()).pathname.endsWith(crudPath(entity, 'delete')));
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.ok') }).click();
  expect(((await (await answered).json()) as { success: boolean }).success, `${entity.name} deleted`).toBe(true);
  await expect.poll(() => regionRows(region).count(), { message: `${entity.name} row gone` }).toBe(before - 1);
}

/** Where the screen exports and no round trip did: the download is a workbook holding the screen's row. */
async function exportOnce(page: Page, region: Locator, entity: EntityDeclaration, target: Row) {
  if (!entityActions(entity).includes('export')) return;
  const file = await exportTo(page, downloads, `${entity.name}-export.xlsx`, region);
  const sheet = (await sheetRows(readFileSync(file))).map((cells) => cells.map((cell) => String(cell ?? '')));
  expect(sheet[0], `${entity.name} export headers`).toContain(headerText(entity, entity.labelField));
  expect(sheet.slice(1).some((cells) => cells.includes(String(target[entity.labelField]))), `${entity.name} export holds its row`).toBe(true);
}

/**
 * Where the screen exports, deletes and imports (and its rows need no initial password nor leave a recycle-bin copy):
 * the row narrowed by a text search is exported, deleted with confirmation, imported back and listed again.
 */
async function sendRound(page: Page, region: Locator, screen: Screen, entity: EntityDeclaration, target: Row): Promise<boolean> {
  const actions = entityActions(entity);
  if (!(['export', 'import', 'delete'] as const).every((a) => actions.includes(a)) || importInitialFields(entity).length > 0 || entity.softDelete?.recycleBin) return false;
  const field = narrowFieldOf(entity, screen);
  expect(field, `${entity.name} can be narrowed to one row`).toBeDefined();
  const value = String(target[field ?? '']);
  const narrowed = await searchText(page, region, entity, field ?? '', value);
  expect(narrowed.result.records.map((r) => r.id)).toEqual([target.id]);
  await expect.poll(() => regionRows(region).count()).toBe(1);
  const file = await exportTo(page, downloads, `${entity.name}.xlsx`, region);

  // nothing is deleted until the confirmation
  await regionRows(region).first().getByRole('button', { name: en('crud.delete') }).click();
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.cancel') }).click();
  await page.locator('.ant-popconfirm:visible').waitFor({ state: 'hidden' });
  expect(await regionRows(region).count(), `${entity.name} kept after cancel`).toBe(1);
  await regionRows(region).first().getByRole('button', { name: en('crud.delete') }).click();
  const deleted = responseTo(page, (r) => new URL(r.url()).pathname.endsWith(crudPath(entity, 'delete')));
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.ok') }).click();
  expect(((await (await deleted).json()) as { success: boolean }).success, `${entity.name} deleted`).toBe(true);
  await expect.poll(() => regionRows(region).count()).toBe(0);

  await region.locator('.ant-upload input[type=file]').setInputFiles(file);
  const report = dialog(page);
  await report.getByText(en('crud.importSummary', { total: '1', added: '1', failed: '0' })).waitFor();
  await report.getByRole('button', { name: en('crud.close'), exact: true }).last().click();
  await expect.poll(() => regionRows(region).filter({ hasText: value }).count()).toBe(1);
  return true;
}

beforeAll(async () => {
  ({ server, call } = await startAsAdmin(PASSWORD));

  const group = await call<{ id: string }>('POST', '/sys/sysDepart/add', { departName: names.group, departOrder: 0 });
  fixtures.departId = group.id;
  const dict = await call<{ id: string }>('POST', '/sys/dict/add', { dictName: names.dict, dictCode: 'search_dict' });
  fixtures.dictId = dict.id;
  const role = await call<{ id: string }>('POST', '/sys/role/add', { roleName: names.role, roleCode: 'search_role_1', roleType: 1 });
  for (const n of [901, 902]) {
    await call('POST', '/sys/user/add', { ...samples.user?.(n, fixtures), sex: n === 901 ? 1 : 2, status: 1, selecteddeparts: group.id, selectedroles: role.id });
  }
  fixtures.users = ['sample901', 'sample902'];
  // menu 901 is searched and sent round; menu 902 holds the data rules
  await call('POST', '/sys/permission/add', samples.permission?.(901, fixtures));
  await call('POST', '/sys/permission/add', samples.permission?.(902, fixtures));
  fixtures.permissionId = (await listed(declaration('permission'), { url: '/sample/902' }))[0]?.id ?? '';
  const parent = await call<{ id: string }>('POST', '/sys/category/add', { name: names.parentCategory, code: 'SCP' });
  const adds: Array<[string, Record<string, unknown>]> = [
    ['role', samples.role?.(901, fixtures) ?? {}],
    ['depart', { ...samples.depart?.(901, fixtures), mobile: '13500000901' }],
    ['position', samples.position?.(901, fixtures) ?? {}],
    ['category', { ...samples.category?.(901, fixtures), pid: parent.id }],
    ['dict', samples.dict?.(901, fixtures) ?? {}],
    ['dictItem', { ...samples.dictItem?.(901, fixtures), status: 1 }],
    ['quartzJob', { ...samples.quartzJob?.(901, fixtures), jobClassName: 'heartbeat' }],
    // linked to the user no screen sends round (a round trip gives the row a new id)
    ['visitor', { ...samples.visitor?.(901, fixtures), departId: fixtures.departId, status: 1, userId: (await byField('user', 'username', 'sample902')()).id }],
    ['userAgent', { ...samples.userAgent?.(0, fixtures), userName: 'sample901', agentUserName: 'sample902' }],
    ['dataRule', samples.dataRule?.(901, fixtures) ?? {}],
    ['departRole', samples.departRole?.(901, fixtures) ?? {}],
  ];
  for (const [name, row] of adds) await call('POST', crudPath(declaration(name), 'add'), row);
  // more than a page of rows on the screens that page
  for (let n = 1; n <= 11; n++) {
    for (const name of ['role', 'position', 'dictItem', 'dataRule', 'departRole', 'visitor'] as const) {
      await call('POST', crudPath(declaration(name), 'add'), samples[name]?.(n, fixtures));
    }
    await call('POST', '/sys/user/add', samples.user?.(n, fixtures));
    // roots of the trees: a search for 'Sample' lists more than a page of them
    for (const name of ['permission', 'depart', 'category'] as const) await call('POST', crudPath(declaration(name), 'add'), samples[name]?.(n, fixtures));
  }
  // an edit writes the data log; a run once writes the job's history
  const post = await byField('position', 'code', 'SAMPLE901')();
  await call('PUT', crudPath(declaration('position'), 'edit'), { ...post, name: 'Sample post 901 renamed' });
  const job = await byField('quartzJob', 'description', 'Sample job 901')();
  await call('GET', `/sys/quartzJob/execute?id=${job.id}`);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('every screen from its declaration', () => {
  // one sign-in and one page; each screen is reached inside the console, as from its menu, and left for a blank page
  // after its test, which unmounts it with its dialogs (a failure leaves no open list behind, and a screen opened
  // again mounts afresh)
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser, { lang: 'en-US' });
    page = await context.newPage();
    await signIn(page, server.url, BETWEEN, 'admin', PASSWORD);
  });
  afterEach(async () => {
    await openInApp(page, BETWEEN);
  });
  afterAll(async () => {
    await context.close();
  });

  it.each(screens.map((s) => [s.entity, s] as const))('%s: searched by every field, sorted, paged, exported (and imported back), edited, deleted', async (_name, screen) => {
    const entity = declaration(screen.entity);
    const target = await screen.target();
    expect(target, `${screen.entity} has its row`).toBeTruthy();
    const region = await screen.open(page);
    const fields = Object.entries(entity.search).filter(([field]) => !screen.fixed?.includes(field));
    expect(fields.length).toBeGreaterThan(0);
    const scope = Object.fromEntries((screen.fixed ?? []).map((f) => [f, String(target[f])]));
    const others = await listed(entity, scope);
    for (const [field, match] of fields) {
      const filled = (row: Row) => row[field] !== null && row[field] !== undefined && row[field] !== '';
      const subject = filled(target) ? target : others.find(filled);
      expect(subject, `${entity.name} has a row with a ${field}`).toBeDefined();
      await searchOnce(page, region, screen, entity, field, match, subject ?? target);
    }
    // A tree (menus, groups, categories) shows its whole shape: the spec reads menus and groups whole (queryTreeList,
    // the permission resource 'no-pager'), so its tree view asks the server for no page. The rows a search finds are
    // listed flat, sorted and paged by the server: that list is the one sorted and paged here.
    const flat = Boolean(entity.tree) && !screen.fixed;
    if (flat) expect((await searchText(page, region, entity, entity.labelField, 'Sample')).result.total, `${entity.name} finds more than a page`).toBeGreaterThan(10);
    await sortEvery(page, region, entity);
    await nextPage(page, region, entity);
    if (flat) await region.getByRole('search').getByRole('button', { name: en('crud.reset') }).click();
    const narrowed = await sendRound(page, region, screen, entity, target);
    if (!narrowed) await exportOnce(page, region, entity, target);
    await editOnce(page, region, screen, entity, target, narrowed);
    if (!narrowed) await deleteOnce(page, region, entity, target);
  });
});
