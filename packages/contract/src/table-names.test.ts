import { describe, expect, it } from 'vitest';
import * as contract from './index.ts';
import { TENANT_DICT } from './http.ts';

const TABLE_NAME = /^sys_[a-z_]+$/;
const QUOTED_TABLE_NAME = /['"`](sys_[a-z_]+)['"`]/g;
/** Names on the wire that only look like tables: the tenants' dictionary code (GET /sys/dict/getDictItems/sys_tenant). */
const WIRE_NAMES = new Set<string>([TENANT_DICT]);

/** Every `sys_*` string the contract's exports hold or their functions' code spells, with where it was found. */
function tableNamesIn(value: unknown, path: string, seen: Set<unknown>, found: string[]): void {
  if (typeof value === 'string') {
    if (TABLE_NAME.test(value) && !WIRE_NAMES.has(value)) found.push(`${path} = ${value}`);
    return;
  }
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
  seen.add(value);
  if (typeof value === 'function') {
    for (const [, name] of Function.prototype.toString.call(value).matchAll(QUOTED_TABLE_NAME)) if (name && !WIRE_NAMES.has(name)) found.push(`${path}() spells ${name}`);
  }
  const entries = value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    if (TABLE_NAME.test(key) && !WIRE_NAMES.has(key)) found.push(`${path}.${key} (a key)`);
    tableNamesIn(child, `${path}.${key}`, seen, found);
  }
}

describe('the contract the browser loads', () => {
  it('names entities, never SQL tables (the server declares them)', () => {
    const found: string[] = [];
    for (const [name, value] of Object.entries(contract)) tableNamesIn(value, name, new Set(), found);
    expect(found).toEqual([]);
  });
});
