import { maskCardNo, type Language } from '@isps/contract';
import type { CurrentUser } from '../access.ts';
import { allDictionaryOptions } from '../dictionaries.ts';
import { showSeededRows } from '../seeded-texts.ts';
import { withLinks } from './links.ts';
import { withReferenceLabels } from './reference-labels.ts';
import type { EntityRuntime, Row } from './runtime.ts';
import { readableFields, toApiRow } from './values.ts';

/**
 * Rows as answered (seeded texts in `lang`, links, reference labels, the `shown` hook, dictionary texts); `full`: a
 * masked field keeps its whole value (the detail of one row, for those who may edit it).
 */
export async function answeredRows(rt: EntityRuntime, rows: Row[], lang: Language, caller: CurrentUser, full = false): Promise<Row[]> {
  const { app, entity, hooks } = rt;
  // fields lists show as card numbers are shown (ID numbers): the last four characters
  const maskedFields = Object.entries(entity.fields).filter(([, f]) => f.maskedInLists).map(([name]) => name);
  const dictFields = [...readableFields(entity).values()].filter((f) => f.dict);
  const api = (await showSeededRows(app, entity.name, rows, lang)).map((r) => toApiRow(entity, r));
  if (!full) for (const row of api) for (const name of maskedFields) if (typeof row[name] === 'string') row[name] = maskCardNo(row[name]);
  await withLinks(rt, api, lang);
  await withReferenceLabels(app, entity, api, caller, lang);
  if (hooks.shown) api.forEach((row, index) => hooks.shown?.(lang, row, rows[index] as Row));
  if (dictFields.length === 0) return api;
  const options = await allDictionaryOptions(app, lang);
  for (const row of api) {
    for (const field of dictFields) {
      const value = row[field.name];
      const option = options[field.dict as string]?.find((o) => o.value === String(value));
      row[`${field.name}_dictText`] = option ? option.text : value === null || value === undefined ? '' : String(value);
    }
  }
  return api;
}
