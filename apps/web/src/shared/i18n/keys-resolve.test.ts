import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18n } from './i18n.ts';

const src = join(import.meta.dirname, '..', '..');

/** Every console source file (tests left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The keys named literally in a `t('…')` call: what a screen would show as it is when no catalogue holds it. */
const namedKeys = [
  ...new Set(sources(src).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([A-Za-z][\w.-]*\.[\w.-]+)'/g)].map((m) => m[1] as string))),
];

describe('the keys the console names', () => {
  it('are found by a literal scan (the scan itself works)', () => {
    expect(namedKeys.length).toBeGreaterThan(300);
    expect(namedKeys).toContain('softUpdate.field.version');
  });

  // the console's own catalogue, entity labels and the messages shared with the server, as the signed-in console loads them
  it.each(['zh-CN', 'en-US', 'ja-JP'])('%s: every one of them resolves, so no screen or form can show a raw key', (lang) => {
    const holds = (key: string) => ['', '_one', '_other'].some((suffix) => i18n.exists(`${key}${suffix}`, { lng: lang, fallbackLng: false }));
    expect(namedKeys.filter((key) => !holds(key))).toEqual([]);
  });
});
