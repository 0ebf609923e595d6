import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { seedIfEmpty } from './db/seed/index.ts';
import { logContentIn } from './platform/audit-log.ts';
import { PasswordHasher } from './platform/passwords.ts';

const script = join(dirname(fileURLToPath(import.meta.url)), 'reset-admin.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'isps-reset-admin-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run reset-admin', () => {
  it('leaves an operation log entry every reader reads in his language', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const seeded = createDatabase(config);
    try {
      await migrateToLatest(seeded.db, seeded.dialect);
      await seedIfEmpty(seeded.db, { hasher: new PasswordHasher(config.passwordHashing), adminPassword: null, clock: () => Date.now() });
    } finally {
      await seeded.destroy();
    }

    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('The admin password is reset.');

    const database = createDatabase(config);
    try {
      const entry = await database.db.selectFrom('sys_log').select(['content', 'log_params', 'username']).where('username', '=', 'system').executeTakeFirstOrThrow();
      expect(JSON.parse(entry.log_params ?? 'null')).toEqual({ key: 'log.adminPasswordReset', params: { username: 'admin' } });
      expect(entry.content).toBe('User admin: password reset from the command line (npm run reset-admin)');
      expect(logContentIn('zh-CN', entry)).toBe('用户 admin：已在命令行重置密码（npm run reset-admin）');
      expect(logContentIn('ja-JP', entry)).toBe('ユーザー admin：コマンドラインでパスワードをリセット（npm run reset-admin）');
    } finally {
      await database.destroy();
    }
  });

  it("prints the server's real address: PUBLIC_URL when set, else its HOST and PORT, never a fixed one", () => {
    const reset = (env: Record<string, string>) => spawnSync(process.execPath, ['--import', 'tsx', script], { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env }, encoding: 'utf8' });
    const listening = reset({ HOST: '127.0.0.1', PORT: '9187' });
    expect(listening.status, listening.stderr).toBe(0);
    expect(listening.stdout).toMatch(/Open:\s+http:\/\/127\.0\.0\.1:9187\/\n/);
    const published = reset({ PORT: '9187', PUBLIC_URL: 'https://console.example.com/' });
    expect(published.status, published.stderr).toBe(0);
    expect(published.stdout).toMatch(/Open:\s+https:\/\/console\.example\.com\/\n/);
    expect(published.stdout).not.toContain('localhost');
  });
});
