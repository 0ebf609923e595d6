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
