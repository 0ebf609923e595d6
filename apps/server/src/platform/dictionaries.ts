import { LANGUAGES, TENANT_DICT, dictItemText, shownSeededText, type DictOption, type Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { toWire } from './wire-time.ts';

/** What the options are read from: a committed write to any of them, here or on another instance, makes them stale. */
const DICT_TABLES = ['sys_dict', 'sys_dict_item', 'sys_tenant'] as const;
// bounds how long a change made outside every server (a script on the database) goes unseen, as for a list page
const KEEP_MS = 5_000;

function toOption(item: { item_value: string; item_text: string }): DictOption {
  return { value: item.item_value, text: item.item_text, label: item.item_text, title: item.item_text };
}

interface Loaded {
  options: Record<string, DictOption[]>;
  /** tenant codes by id: the seeded tenant's name is told by its code */
  tenantCodes: Record<string, string>;
}

async function loadAll(app: FastifyInstance): Promise<Loaded> {
  const rows = await app.db
    .selectFrom('sys_dict_item as i')
    .innerJoin('sys_dict as d', 'd.id', 'i.dict_id')
    .select(['d.dict_code', 'i.item_value', 'i.item_text'])
    .where('d.del_flag', '=', 0)
    .where('i.status', '=', 1)
    .orderBy('d.dict_code')
    .orderBy('i.sort_order')
    .orderBy('i.item_value')
    .execute();
  // codes are data: `__proto__` or `constructor` is a key like any other, never the object's prototype
  const byCode: Record<string, DictOption[]> = Object.create(null) as Record<string, DictOption[]>;
  for (const row of rows) (byCode[row.dict_code] ??= []).push(toOption(row));
  // the tenants are a dictionary too: a row's tenant shows as `tenantId_dictText` and is picked from a list
  const tenants = await app.db.selectFrom('sys_tenant').select(['id', 'name', 'code']).orderBy('name').orderBy('id').execute();
  byCode[TENANT_DICT] = tenants.map((t) => toOption({ item_value: t.id, item_text: t.name }));
  return { options: byCode, tenantCodes: Object.fromEntries(tenants.map((t) => [t.id, t.code])) };
}

/** The options an instance read last, with the table versions they were read at, and what was derived from them. */
interface Kept {
  loaded: Loaded;
  tables: readonly string[];
  versions: number[];
  /** wall time (performance.now) after which they are read again */
  expiresAt: number;
  shown: Map<string, DictOption[]>;
  all: Map<Language, Record<string, DictOption[]>>;
  /** option lists as JSON with their times on the wire, by language, code and reader */
  json: Map<string, string>;
}
const kept = new WeakMap<FastifyInstance, Kept>();
/** a read under way, shared by the requests that find no current copy meanwhile */
const reading = new WeakMap<FastifyInstance, { tables: readonly string[]; versions: number[]; answer: Promise<Kept> }>();

/** The options this instance keeps while no table they come from was written since and they are not too old. */
function keptCurrent(app: FastifyInstance): Kept | undefined {
  const last = kept.get(app);
  return last && last.expiresAt > performance.now() && app.listCache.unchanged(last) ? last : undefined;
}

/**
 * The options, read from the tables once per change, not per request: every committed write to them (through any
 * code path, on any instance sharing the event bus) drops the kept copy, as it drops a list page's.
 */
async function current(app: FastifyInstance): Promise<Kept> {
  const last = keptCurrent(app);
  if (last) return last;
  const running = reading.get(app);
  if (running && app.listCache.unchanged(running)) return running.answer;
  // taken before the read: a write committed while it runs leaves this copy stale at once
  const versions = app.listCache.versionsOf(DICT_TABLES);
  const expiresAt = performance.now() + KEEP_MS;
  const answer = loadAll(app).then((loaded): Kept => {
    const next = { loaded, tables: DICT_TABLES, versions, expiresAt, shown: new Map(), all: new Map(), json: new Map() };
    kept.set(app, next);
    return next;
  });
  const read = { tables: DICT_TABLES, versions, answer };
  reading.set(app, read);
  try {
    return await answer;
  } finally {
    if (reading.get(app) === read) reading.delete(app);
  }
}

async function loaded(app: FastifyInstance): Promise<Loaded> {
  return (await current(app)).loaded;
}

/** Every enabled dictionary's options with their texts as stored (the login answer's `sysAllDictItems`). */
export async function storedOptions(app: FastifyInstance): Promise<Record<string, DictOption[]>> {
  return (await loaded(app)).options;
}

function localised(lang: Language, code: string, options: DictOption[], tenantCodes: Record<string, string>): DictOption[] {
  return options.map((o) => {
    const text =
      code === TENANT_DICT
        ? String(shownSeededText(lang, 'tenant', 'name', { name: o.text, code: Object.hasOwn(tenantCodes, o.value) ? tenantCodes[o.value] : undefined }))
        : dictItemText(lang, code, o.value, o.text);
    return text === o.text ? o : { ...o, text, label: text, title: text };
  });
}

/**
 * Every enabled dictionary's options in the reader's language. Seeded items an administrator has not renamed are
 * translated; others are shown as stored.
 */
export async function allDictionaryOptions(app: FastifyInstance, lang: Language): Promise<Record<string, DictOption[]>> {
  const memo = await current(app);
  let shown = memo.all.get(lang);
  if (!shown) {
    const { options: all, tenantCodes } = memo.loaded;
    shown = Object.fromEntries(Object.entries(all).map(([code, options]) => [code, localised(lang, code, options, tenantCodes)]));
    memo.all.set(lang, shown);
  }
  // a copy of the map (callers replace entries); the option lists are shared and must not be changed
  return { ...shown };
}

/**
 * The options an import reads texts back with: the reader's language first, then the others, so a sheet exported
 * in another language (its texts translated) imports too, as its headers do.
 */
export async function importDictionaryOptions(app: FastifyInstance, lang: Language): Promise<Record<string, DictOption[]>> {
  const { options: all, tenantCodes } = await loaded(app);
  const languages = [lang, ...LANGUAGES.filter((other) => other !== lang)];
  return Object.fromEntries(Object.entries(all).map(([code, options]) => [code, languages.flatMap((reader) => localised(reader, code, options, tenantCodes))]));
}

/** One dictionary's options in the reader's language; the answer is shared between calls and must not be changed. */
export async function dictionaryOptions(app: FastifyInstance, code: string, lang: Language): Promise<readonly DictOption[]> {
  const { loaded: { options: all, tenantCodes }, shown } = await current(app);
  const key = `${lang}\u0000${code}`;
  let options = shown.get(key);
  if (!options) {
    options = localised(lang, code, Object.hasOwn(all, code) ? (all[code] ?? []) : [], tenantCodes);
    // codes nobody has are not remembered: a caller cannot grow the map with made-up codes
    if (Object.hasOwn(all, code)) shown.set(key, options);
  }
  return options;
}

function jsonKey(lang: Language, code: string, reader: string): string {
  return `${lang}\u0000${code}\u0000${reader}`;
}

/**
 * A dictionary's options as the JSON an answer carries (times on the wire, as every answer's are), made once per
 * change for each language, code and `reader` (what else the options depend on: who reads the tenant dictionary).
 */
export async function dictionaryOptionsJson(
  app: FastifyInstance,
  code: string,
  lang: Language,
  reader: string,
  options: (shown: readonly DictOption[]) => readonly DictOption[],
): Promise<string> {
  const memo = await current(app);
  const key = jsonKey(lang, code, reader);
  let json = memo.json.get(key);
  if (json === undefined) {
    json = JSON.stringify(toWire(options(await dictionaryOptions(app, code, lang)), app.settings.timeZone));
    // codes nobody has are not remembered: a caller cannot grow the map with made-up codes
    if (Object.hasOwn(memo.loaded.options, code)) memo.json.set(key, json);
  }
  return json;
}

/** `dictionaryOptionsJson`'s answer when this instance keeps it current, without waiting; else undefined. */
export function keptDictionaryOptionsJson(app: FastifyInstance, code: string, lang: Language, reader: string): string | undefined {
  return keptCurrent(app)?.json.get(jsonKey(lang, code, reader));
}

/**
 * Reads the options again here and on every instance (the dictionary screen's cache reload, after the tables were
 * edited outside the console); changes through the console need no call, their committed writes do it.
 */
export async function refreshDictionaries(app: FastifyInstance): Promise<void> {
  await app.tablesChanged(DICT_TABLES);
}
