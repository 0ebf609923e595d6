import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isStrongPassword } from '@isps/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAdminPassword } from './db/seed/index.ts';
import { consoleAddress, INITIAL_PASSWORD_FILE, rememberInitialPassword } from './initial-password.ts';
import { ADMIN_PASSWORD, INITIAL_ADMIN_PASSWORD, buildTestApp, changePassword, createTestUser, login, tryLogin, USER_PASSWORD, type TestApp } from './test/harness.ts';

describe('generated one-time passwords', () => {
  const many = Array.from({ length: 300 }, () => generateAdminPassword());

  it('are strong, of a clear alphabet, and all different', () => {
    for (const password of many) {
      expect(isStrongPassword(password), password).toBe(true);
      expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9_]{16}$/);
    }
    expect(new Set(many).size).toBe(many.length);
  });

  it('have no fixed part: neither their end nor their start repeats', () => {
    for (const take of [(p: string) => p.slice(-3), (p: string) => p.slice(0, 3), (p: string) => p.slice(-1)]) {
      const parts = new Set(many.map(take));
      expect(parts.size).toBeGreaterThan(20);
    }
  });
});

describe('the console address the banners print', () => {
  it('is PUBLIC_URL when set, else the listen address with a wildcard host read as localhost', () => {
    expect(consoleAddress({ host: '0.0.0.0', port: 8080, publicUrl: 'https://console.example.com' })).toBe('https://console.example.com/');
    expect(consoleAddress({ host: '0.0.0.0', port: 9123, publicUrl: null })).toBe('http://localhost:9123/');
    expect(consoleAddress({ host: '127.0.0.1', port: 8080, publicUrl: null }, 41234)).toBe('http://127.0.0.1:41234/');
    expect(consoleAddress({ host: '::1', port: 8080, publicUrl: null })).toBe('http://[::1]:8080/');
  });
});

describe('initial-admin-password', () => {
  let t: TestApp;
  const file = () => join(t.namespace.dataDir, INITIAL_PASSWORD_FILE);

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('stays while another user changes his password, and is removed the moment admin replaces his', async () => {
    rememberInitialPassword(t.namespace.dataDir, INITIAL_ADMIN_PASSWORD);
    const first = await tryLogin(t.app, 'admin', INITIAL_ADMIN_PASSWORD);
    expect(first.envelope.success).toBe(true);

    await createTestUser(t.app, 'shift_lead', { mustChangePassword: false });
    const userToken = await login(t.app, 'shift_lead', USER_PASSWORD);
    expect((await changePassword(t.app, userToken, 'shift_lead', USER_PASSWORD, 'Lead#Pass77')).envelope.success).toBe(true);
    expect(existsSync(file())).toBe(true);

    const changed = await changePassword(t.app, first.envelope.result.token, 'admin', INITIAL_ADMIN_PASSWORD, ADMIN_PASSWORD);
    expect(changed.envelope.success, changed.envelope.message).toBe(true);
    expect(existsSync(file())).toBe(false);
  });
});
