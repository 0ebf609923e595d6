import { LANGUAGES, TENANT_DICT, dictItemText, shownSeededText, type DictOption, type Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { toWire } from './wire-time.ts';

const CACHE_KEY = 'dict:all:2';
// a safety net only: every change through the console drops the cached copy at once
const CACHE_TTL_MS = 10 * 60_000;

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

/** The parsed form of the cached text an instance read last, and what was derived from it per language. */
interface Parsed {
  text: string;
  loaded: Loaded;
  shown: Map<string, DictOption[]>;
  all: Map<Language, Record<string, DictOption[]>>;
  /** option lists as JSON with their times on the wire, by language, code and reader */
  json: Map<string, string>;
}
const parsed = new WeakMap<FastifyInstance, Parsed>();

/**
 * The options from the shared cache. The cached text is parsed once per change, not per request: the same text
 * (the same string from the in-process cache, equal content from Redis) answers from the parsed copy.
 */
async function current(app: FastifyInstance): Promise<Parsed> {
  let text = await app.cache.get(CACHE_KEY);
  const last = parsed.get(app);
  if (text && last && last.text === text) return last;
  let all: Loaded;
  if (text) all = JSON.parse(text) as Loaded;
  else {
    all = await loadAll(app);
    text = JSON.stringify(all);
    await app.cache.set(CACHE_KEY, text, CACHE_TTL_MS);
  }
  const next = { text, loaded: all, shown: new Map<string, DictOption[]>(), all: new Map<Language, Record<string, DictOption[]>>(), json: new Map<string, string>() };
  parsed.set(app, next);
  return next;
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
        ? String(shownSeededText(lang, 'sys_tenant', 'name', { name: o.text, code: Object.hasOwn(tenantCodes, o.value) ? tenantCodes[o.value] : undefined }))
        : dictItemText(lang, code, o.value, o.text);
    return text === o.text ? o : { ...o, text, label: text, title: text };
  });
}

/**
 * Every enabled dictionary's options in the reader's language, from the shared cache (Redis when configured) or
 * the database. Seeded items an administrator has not renamed are translated; others are shown as stored.
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
  const key = `${lang}\u0000${code}\u0000${reader}`;
  let json = memo.json.get(key);
  if (json === undefined) {
    json = JSON.stringify(toWire(options(await dictionaryOptions(app, code, lang)), app.settings.timeZone));
    // codes nobody has are not remembered: a caller cannot grow the map with made-up codes
    if (Object.hasOwn(memo.loaded.options, code)) memo.json.set(key, json);
  }
  return json;
}

/** Drops the cached options; the next read loads them again. Called on every dictionary or item change. */
export async function refreshDictionaries(app: FastifyInstance): Promise<void> {
  await app.cache.del(CACHE_KEY);
}
