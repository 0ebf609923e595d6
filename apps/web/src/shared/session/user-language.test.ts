import { ApiPath, browserLanguage, type UserInfo } from '@isps/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, setFeedback } from '../api/index.ts';
import { storedLanguage } from '../i18n/index.ts';
import { StorageKey, getStored, setStored } from '../storage/index.ts';
import { chooseLanguage, useSession } from './index.ts';

const userInfo: UserInfo = { id: '1', username: 'kim', realname: 'Kim', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
let puts: Array<{ url: string; body: unknown; token: string | null }>;
let reload: ReturnType<typeof vi.fn<() => void>>;

/** The browser's languages, as navigator.languages reports them. */
function browserSpeaks(...languages: string[]) {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  useSession.getState().clear();
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  puts = [];
  reload = vi.fn<() => void>();
  vi.spyOn(browser, 'reload').mockImplementation(reload);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      if (init.method === 'PUT') puts.push({ url, body: JSON.parse(String(init.body)), token: headers.get('X-Access-Token') });
      return Response.json({ success: true, message: '', code: 200, result: null, timestamp: 1 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('first visit in the reader\'s language', () => {
  it('matches the browser\'s languages to the console\'s, in their order, else zh-CN', () => {
    expect(browserLanguage(['ja'])).toBe('ja-JP');
    expect(browserLanguage(['en-GB', 'zh-CN'])).toBe('en-US');
    expect(browserLanguage(['fr-FR', 'de', 'ja-JP', 'en-US'])).toBe('ja-JP');
    expect(browserLanguage(['zh-Hant-TW'])).toBe('zh-CN');
    expect(browserLanguage(['EN'])).toBe('en-US');
    expect(browserLanguage(['fr-FR', 'ko'])).toBe('zh-CN');
    expect(browserLanguage([])).toBe('zh-CN');
    expect(browserLanguage(undefined)).toBe('zh-CN');
  });

  it('shows a first visit in the browser\'s language, and a stored choice over it', () => {
    browserSpeaks('ja', 'en-US');
    expect(storedLanguage()).toBe('ja-JP');
    browserSpeaks('en-GB');
    expect(storedLanguage()).toBe('en-US');
    browserSpeaks('fr-FR');
    expect(storedLanguage()).toBe('zh-CN');
    setStored(StorageKey.language, 'ja-JP', null);
    expect(storedLanguage()).toBe('ja-JP');
  });
});

describe('the choice kept with the user', () => {
  it('saves a signed-in user\'s switch on the server, keeps it here and reloads in it', async () => {
    useSession.getState().signIn('tok', userInfo);
    await chooseLanguage('en-US');
    expect(puts).toEqual([{ url: `/api${ApiPath.userLanguage}`, body: { lang: 'en-US' }, token: 'tok' }]);
    expect(getStored(StorageKey.language)).toBe('en-US');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('applies the user\'s kept language when they sign in on another browser', () => {
    browserSpeaks('zh-CN');
    useSession.getState().signIn('tok', { ...userInfo, lang: 'ja-JP' });
    expect(getStored(StorageKey.language)).toBe('ja-JP');
    expect(reload).toHaveBeenCalledTimes(1);
    // a user who kept none, or keeps the one on screen, is not reloaded
    useSession.getState().clear();
    useSession.getState().signIn('tok2', { ...userInfo, lang: 'ja-JP' });
    useSession.getState().clear();
    useSession.getState().signIn('tok3', { ...userInfo, lang: null });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(puts).toEqual([]);
  });

  it('keeps with the user a language picked on the login page before signing in', async () => {
    await chooseLanguage('ja-JP');
    expect(puts).toEqual([]);
    expect(reload).toHaveBeenCalledTimes(1);
    useSession.getState().signIn('tok', { ...userInfo, lang: 'en-US' });
    await vi.waitFor(() => expect(puts).toEqual([{ url: `/api${ApiPath.userLanguage}`, body: { lang: 'ja-JP' }, token: 'tok' }]));
    expect(getStored(StorageKey.language)).toBe('ja-JP');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
