import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANG_HEADER, TENANT_HEADER, TOKEN_HEADER } from '@isps/contract';
import { setStored, StorageKey } from '../storage/index.ts';
import { useSession } from '../session/session-store.ts';
import { http, ApiError } from './client.ts';
import { browser, setFeedback, type Feedback } from './feedback.ts';

interface Call {
  url: string;
  init: RequestInit;
}

let calls: Call[];
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;
let modal: ReturnType<typeof vi.fn<Feedback['modal']>>;

function respond(status: number, body: unknown): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

const ok = { success: true, message: '', code: 200, result: { a: 1 }, timestamp: 1 };
const fail = (code: number, message: string) => ({ success: false, message, code, result: null, timestamp: 1 });

function headersOf(call: Call | undefined): Headers {
  return new Headers(call?.init.headers);
}

beforeEach(() => {
  localStorage.clear();
  calls = [];
  notify = vi.fn();
  modal = vi.fn();
  setFeedback({ notify, modal });
  browser.reload = vi.fn();
  browser.assign = vi.fn();
  useSession.getState().clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('request headers', () => {
  it('sends the tenant chosen in the header (0 for the own one) on every call, and forgets it at sign-out', async () => {
    setStored(StorageKey.token, 'tok-1');
    respond(200, ok);
    await http.get('/sys/thing');
    expect(headersOf(calls[0]).get(TENANT_HEADER)).toBe('0');
    setStored(StorageKey.tenant, 'tenant-b', null);
    await http.post('/sys/thing', { a: 1 });
    await http.delete('/sys/thing');
    expect(headersOf(calls[1]).get(TENANT_HEADER)).toBe('tenant-b');
    expect(headersOf(calls[2]).get(TENANT_HEADER)).toBe('tenant-b');
    useSession.getState().clear();
    setStored(StorageKey.token, 'tok-2');
    await http.get('/sys/thing');
    expect(headersOf(calls[3]).get(TENANT_HEADER)).toBe('0');
  });

  it('sends the stored token and the chosen language', async () => {
    setStored(StorageKey.token, 'tok-1');
    setStored(StorageKey.language, 'en-US', null);
    respond(200, ok);
    const body = await http.get('/sys/thing');
    expect(body.result).toEqual({ a: 1 });
    expect(headersOf(calls[0]).get(TOKEN_HEADER)).toBe('tok-1');
    expect(headersOf(calls[0]).get(LANG_HEADER)).toBe('en-US');
    expect(calls[0]?.url.startsWith('/api/sys/thing')).toBe(true);
  });

  it('defaults the language header to zh-CN and omits the token when there is none', async () => {
    respond(200, ok);
    await http.post('/sys/login', { username: 'a' });
    expect(headersOf(calls[0]).get(TOKEN_HEADER)).toBeNull();
    expect(headersOf(calls[0]).get(LANG_HEADER)).toBe('zh-CN');
    expect(calls[0]?.init.body).toBe(JSON.stringify({ username: 'a' }));
  });

  it.each(['http://10.0.0.5:2108/api/door/open', 'http://host/sensor/api/read'])('omits both headers for %s', async (url) => {
    setStored(StorageKey.token, 'tok-1');
    respond(200, ok);
    await http.get(url);
    expect(headersOf(calls[0]).get(TOKEN_HEADER)).toBeNull();
    expect(headersOf(calls[0]).get(LANG_HEADER)).toBeNull();
  });
});

describe('the _t rule', () => {
  it('adds _t in seconds to GET requests', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:10Z'));
    respond(200, ok);
    await http.get('/sys/user/list', { pageNo: 1 });
    expect(calls[0]?.url).toBe(`/api/sys/user/list?pageNo=1&_t=${Date.UTC(2026, 0, 1, 0, 0, 10) / 1000}`);
  });

  it('leaves dictionary-item lookups and non-GET calls without _t', async () => {
    respond(200, ok);
    await http.get('/sys/dict/getDictItems/sex');
    await http.post('/sys/logout');
    expect(calls[0]?.url).toBe('/api/sys/dict/getDictItems/sex');
    expect(calls[1]?.url).toBe('/api/sys/logout');
  });

  it('posts long calls against the root with its own base', async () => {
    respond(200, ok);
    await http.postLong('/report/build', {});
    expect(calls[0]?.url).toBe('/report/build');
  });
});

describe('timeout', () => {
  it('aborts after 9000 ms and reacts with a network timeout', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      ),
    );
    const pending = http.get('/slow');
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(8999);
    expect(notify).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(504);
    expect(notify.mock.calls[0]?.slice(0, 3)).toEqual(['error', '系统提示', '网络请求超时']);
  });
});

describe('no answer', () => {
  it("says 'Request exception:' with what the browser says when a call gets no answer", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 0, message: '请求出现异常：Failed to fetch' });
    expect(notify.mock.calls[0]?.slice(0, 3)).toEqual(['error', '系统提示', '请求出现异常：Failed to fetch']);
  });
});

describe('reactions', () => {
  it.each([
    [403, '拒绝访问'],
    [404, '很抱歉，资源未找到'],
    [504, '网络请求超时'],
  ])('notifies %i', async (status, text) => {
    respond(status, fail(status, 'server text'));
    await expect(http.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(notify.mock.calls[0]?.slice(0, 3)).toEqual(['error', '系统提示', text]);
    expect(notify.mock.calls[0]?.[3]).toBe(status === 504 ? undefined : 4);
  });

  it('shows the server message for other statuses', async () => {
    respond(400, fail(400, 'The request is not valid: name'));
    await expect(http.post('/x', {})).rejects.toMatchObject({ status: 400 });
    expect(notify).toHaveBeenCalledWith('error', '系统提示', 'The request is not valid: name', 4);
  });

  it('on 401 with a token clears the session and reloads after 1.5 s', async () => {
    vi.useFakeTimers();
    setStored(StorageKey.token, 'tok-1');
    respond(401, fail(401, 'Unauthorized'));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(notify).toHaveBeenCalledWith('error', '系统提示', '未授权，请重新登录', 4);
    expect(localStorage.getItem('pro__Access-Token')).toBeNull();
    expect(calls.some((c) => c.url === '/api/sys/logout')).toBe(true);
    await vi.advanceTimersByTimeAsync(1499);
    expect(browser.reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(browser.reload).toHaveBeenCalledTimes(1);
  });

  it('on 401 without a token only notifies', async () => {
    vi.useFakeTimers();
    respond(401, fail(401, 'Unauthorized'));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 401 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(browser.reload).not.toHaveBeenCalled();
  });

  it('on 500 meaning token expired offers a re-login that logs out and reloads', async () => {
    setStored(StorageKey.token, 'tok-1');
    respond(500, fail(500, 'Token expired, please log in again'));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 500 });
    expect(modal).toHaveBeenCalledTimes(1);
    const [kind, props] = modal.mock.calls[0]!;
    expect(kind).toBe('error');
    expect(props.title).toBe('登录已过期');
    expect(props.okText).toBe('重新登录');
    props.onOk?.();
    expect(localStorage.getItem('pro__Access-Token')).toBeNull();
    expect(browser.reload).toHaveBeenCalled();
  });

  it('on 500 meaning authorization expired offers activation, once however many calls were refused', async () => {
    respond(500, fail(500, '系统授权已过期'));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 500 });
    respond(500, fail(500, '系统授权已过期'));
    await expect(http.get('/y')).rejects.toMatchObject({ status: 500 });
    expect(modal).toHaveBeenCalledTimes(1);
    const [, props] = modal.mock.calls[0]!;
    expect(props.title).toBe('系统授权已过期，请激活');
    expect(props.okText).toBe('激活');
    props.onOk?.();
    expect(browser.assign).toHaveBeenCalledWith('/user/active');
  });

  it('on any other 500 shows the server message', async () => {
    respond(500, fail(500, 'Request error (request r1)'));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 500 });
    expect(modal).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith('error', '系统提示', 'Request error (request r1)', 4);
  });

  it('passes business refusals (HTTP 200, success false) to the caller without a notice', async () => {
    respond(200, fail(500, 'The user name or password is wrong'));
    const body = await http.post('/sys/login', {});
    expect(body.success).toBe(false);
    expect(notify).not.toHaveBeenCalled();
  });
});
