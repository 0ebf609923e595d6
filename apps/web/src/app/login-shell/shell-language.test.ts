import { browserLanguage } from '@isps/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BROWSER_LANGUAGE_JS, loginShellScript } from './shell-script.ts';

const envelope = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 1 });
const languageOf = (languages: readonly string[]) => new Function('navigator', `return ${BROWSER_LANGUAGE_JS}`)({ languages }) as string;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.getElementById('root')?.remove();
  localStorage.clear();
});

describe('the drawn login page of a first visit', () => {
  it('picks the language from the browser\'s as the console does', () => {
    for (const tags of [['ja'], ['en-GB', 'zh-CN'], ['fr-FR', 'ja-JP'], ['zh-Hant-TW'], ['EN_us'], ['fr', 'ko'], [], ['']]) {
      expect([tags, languageOf(tags)]).toEqual([tags, browserLanguage(tags)]);
    }
  });

  it('is drawn in the browser\'s language when none is chosen, and in the chosen one after', () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json(envelope(null))));
    const shells = { 'zh-CN': '<p>登录</p>', 'en-US': '<p>Sign in</p>', 'ja-JP': '<p>ログイン</p>' };
    const script = loginShellScript({ shells, year: 2026, entry: '/assets/index-test.js', apiBase: '/api', paths: { randomImage: '/sys/randomImage/:key', loginSettings: '/sys/account/loginSettings' }, loginPaths: ['/user/login'], events: ['keydown'], waitMs: 60_000 });
    const draw = () => {
      document.getElementById('root')?.remove();
      const root = document.createElement('div');
      root.id = 'root';
      document.body.append(root);
      new Function(script)();
      return [document.documentElement.lang, root.textContent];
    };
    window.history.replaceState(null, '', '/user/login');
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['ja', 'en-US']);
    expect(draw()).toEqual(['ja-JP', 'ログイン']);
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    expect(draw()).toEqual(['zh-CN', '登录']);
    localStorage.setItem('pro__lang', JSON.stringify({ value: 'en-US', expire: null }));
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['ja']);
    expect(draw()).toEqual(['en-US', 'Sign in']);
  });
});
