import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: import.meta.dirname });

/** Lints `code` as if it were the file at `filePath` and returns the import-zone violations. */
async function zoneErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'zones/no-restricted-paths').map((m) => m.message);
}

describe('import zones keep the dependency graph one-way', () => {
  it('refuses a feature importing another feature', async () => {
    const errors = await zoneErrors("import { x } from '../user/index.ts';\nexport const y = x;\n", 'apps/web/src/features/dashboard/probe.ts');
    expect(errors.join()).toMatch(/a feature never imports another feature/);
  });

  it('refuses shared code importing a feature or the app shell', async () => {
    expect(await zoneErrors("export * from '../../features/user/index.ts';\n", 'apps/web/src/shared/ui/probe.ts')).toHaveLength(1);
    expect(await zoneErrors("export * from '../../app/router.tsx';\n", 'apps/web/src/shared/ui/probe.ts')).toHaveLength(1);
  });

  it('refuses server platform code importing a product module', async () => {
    expect(await zoneErrors("export * from '../modules/system/index.ts';\n", 'apps/server/src/platform/probe.ts')).toHaveLength(1);
  });

  it('allows the app shell to compose features and a feature to use shared code', async () => {
    expect(await zoneErrors("export * from '../features/user/index.ts';\n", 'apps/web/src/app/probe.ts')).toEqual([]);
    expect(await zoneErrors("export * from '../../shared/ui/index.ts';\n", 'apps/web/src/features/user/probe.ts')).toEqual([]);
  });
});

describe('the CRUD engine stays split by concern', () => {
  /** A function of `lines` statements, as the file at `filePath`; answers the function-length findings. */
  async function lengthErrors(lines: number, filePath: string): Promise<string[]> {
    const body = Array.from({ length: lines }, (_, i) => `  total += ${i};`).join('\n');
    const [result] = await eslint.lintText(`export function grown(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'max-lines-per-function').map((m) => m.message);
  }

  it('refuses a function of more than 120 lines in platform/crud, and allows one of 100', async () => {
    expect((await lengthErrors(130, 'apps/server/src/platform/crud/probe.ts')).join()).toMatch(/too many lines/);
    expect(await lengthErrors(100, 'apps/server/src/platform/crud/probe.ts')).toEqual([]);
  });

  it('leaves tests and other folders to their authors', async () => {
    expect(await lengthErrors(130, 'apps/server/src/platform/crud/probe.test.ts')).toEqual([]);
    expect(await lengthErrors(130, 'apps/server/src/platform/probe.ts')).toEqual([]);
  });
});
