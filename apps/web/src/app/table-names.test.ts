import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TENANT_DICT } from '@isps/contract';
import { describe, expect, it } from 'vitest';

const web = join(import.meta.dirname, '..');
const contract = join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'contract', 'src');

/** Every source file the console's bundle is built from: its own and the contract's (tests left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the console bundle', () => {
  it('names entities, never SQL tables (seeded texts, data logs and links go by entity names the server maps)', () => {
    const files = [...sources(web), ...sources(contract)];
    const found = files.flatMap((file) => {
      // comments do not reach the bundle
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      // the tenants' dictionary code is a name on the wire (GET /sys/dict/getDictItems/sys_tenant), not a table
      return [...code.matchAll(/['"`](sys_[a-z_]+)['"`]/g)].flatMap(([, name]) => (name && name !== TENANT_DICT ? [`${file}: ${name}`] : []));
    });
    expect(sources(contract).length).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });
});
