import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, translate, type LoginResult } from '@isps/contract';
import { api, buildTestApp, createTestUser, injectAs, login, tryLogin, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

describe('the console language kept with the user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await createTestUser(t.app, 'linguist', { roles: ['user'] });
    await createTestUser(t.app, 'bystander', { roles: ['user'] });
    await createTestUser(t.app, 'newcomer', { roles: ['user'], mustChangePassword: true });
  });
  afterAll(async () => t?.close());

  const save = (token: string | null, payload: unknown, lang = 'en-US') =>
    injectAs(t.app, token, { method: 'PUT', url: api(t.app, ApiPath.userLanguage), payload: payload as object, headers: { lang } });

  it('has none until the user chooses, then gives the choice at every sign-in', async () => {
    expect((await tryLogin(t.app, 'linguist', USER_PASSWORD)).envelope.result.userInfo.lang).toBeNull();
    const token = await login(t.app, 'linguist', USER_PASSWORD);
    expect((await save(token, { lang: 'ja-JP' })).envelope).toMatchObject({ success: true, code: 200 });
    // another browser signing in learns it, and the choice is the user's alone
    const again = await tryLogin(t.app, 'linguist', USER_PASSWORD);
    expect((again.envelope.result as LoginResult).userInfo.lang).toBe('ja-JP');
    expect((await tryLogin(t.app, 'bystander', USER_PASSWORD)).envelope.result.userInfo.lang).toBeNull();
    await save(token, { lang: 'en-US' });
    expect((await tryLogin(t.app, 'linguist', USER_PASSWORD)).envelope.result.userInfo.lang).toBe('en-US');
  });

  it('refuses a language the console does not speak, in the reader\'s language, and keeps the last choice', async () => {
    const token = await login(t.app, 'bystander', USER_PASSWORD);
    await save(token, { lang: 'zh-CN' });
    for (const payload of [{ lang: 'fr-FR' }, { lang: '' }, {}, { lang: 7 }, { lang: 'en-US\u0000' }]) {
      const refused = await save(token, payload, 'en-US');
      expect([JSON.stringify(payload), refused.statusCode, refused.envelope.success, refused.envelope.code]).toEqual([JSON.stringify(payload), 400, false, 400]);
      expect(refused.envelope.message).not.toMatch(/zod|Error:|at \//);
    }
    const zh = await save(token, { lang: 'fr-FR' }, 'zh-CN');
    expect(zh.envelope.message.startsWith(translate('zh-CN', 'error.badRequest', { detail: '' }))).toBe(true);
    expect((await tryLogin(t.app, 'bystander', USER_PASSWORD)).envelope.result.userInfo.lang).toBe('zh-CN');
  });

  it('asks for a session, which may still have a password change due', async () => {
    expect((await save(null, { lang: 'en-US' })).statusCode).toBe(401);
    const due = await login(t.app, 'newcomer', USER_PASSWORD);
    expect((await save(due, { lang: 'ja-JP' })).statusCode).toBe(200);
    expect((await tryLogin(t.app, 'newcomer', USER_PASSWORD)).envelope.result.userInfo.lang).toBe('ja-JP');
  });
});
