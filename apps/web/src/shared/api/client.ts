import { ApiPath, LANG_HEADER, Limits, TENANT_HEADER, TOKEN_HEADER, tokenExpiredMessages, type Envelope } from '@isps/contract';
import { i18n } from '../i18n/i18n.ts';
import { storedLanguage } from '../i18n/language.ts';
import { currentToken, useSession } from '../session/session-store.ts';
import { StorageKey, getStored } from '../storage/index.ts';
import { browser, feedback } from './feedback.ts';

/** Base of every API call; VITE_API_BASE points the console at another server. */
export const API_BASE: string = import.meta.env.VITE_API_BASE || '/api';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: Method;
  params?: Params;
  data?: unknown;
  baseURL?: string;
  timeout?: number;
  /** skip the notices and modals below; the caller deals with the failure */
  silent?: boolean;
  signal?: AbortSignal;
  /** extra headers, set after the session headers */
  headers?: Record<string, string>;
}

/** A failed call: HTTP status (504 for a timeout) and the envelope when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Envelope | null;
  constructor(status: number, message: string, body: Envelope | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

const NOTICE_SECONDS = 4;
const RELOAD_AFTER_401_MS = 1500;

// Sensor and device-port services reject foreign headers, so nothing of the session goes to them.
function sendsSessionHeaders(url: string): boolean {
  return !url.includes(':2108/api/') && !url.includes('sensor/api/');
}

// Dictionary lookups are cached by the browser; every other GET is made unique.
function addsTimestamp(url: string): boolean {
  return !url.includes(ApiPath.dictItems.replace(':code', ''));
}

export function buildUrl(url: string, baseURL: string, params: Params | undefined, method: Method): string {
  const absolute = /^https?:\/\//.test(url);
  const joined = absolute ? url : `${baseURL.replace(/\/$/, '')}/${url.replace(/^\//, '')}`;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  if (method === 'GET' && addsTimestamp(url)) query.append('_t', String(Math.floor(Date.now() / 1000)));
  const search = query.toString();
  if (!search) return joined;
  return `${joined}${joined.includes('?') ? '&' : '?'}${search}`;
}

/** The tenant chosen in the header's selector, '0' for the user's own. */
export function chosenTenant(): string {
  return getStored<string>(StorageKey.tenant) || '0';
}

export function buildHeaders(url: string, data: unknown, extra: Record<string, string> | undefined): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (data !== undefined && !(data instanceof FormData)) headers.set('Content-Type', 'application/json;charset=UTF-8');
  if (sendsSessionHeaders(url)) {
    const token = currentToken();
    if (token) headers.set(TOKEN_HEADER, token);
    headers.set(LANG_HEADER, storedLanguage());
    // the tenant a system administrator works in; the server ignores it for everyone else
    headers.set(TENANT_HEADER, chosenTenant());
  }
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return headers;
}

const tokenExpiredTexts = [...Object.values(tokenExpiredMessages), 'Token失效'];
const authorizationExpiredPatterns = [/授权.*过期/, /authori[sz]ation.*expired/i, /ライセンス.*期限/, /認証.*期限切れ/];

function meansTokenExpired(message: string): boolean {
  return tokenExpiredTexts.some((m) => message.includes(m));
}

function meansAuthorizationExpired(message: string): boolean {
  return authorizationExpiredPatterns.some((p) => p.test(message));
}

/** Clears the local session and tells the server, whose answer no longer matters. */
function endSession(): void {
  const token = currentToken();
  useSession.getState().clear();
  if (token) {
    void fetch(buildUrl(ApiPath.logout, API_BASE, undefined, 'POST'), {
      method: 'POST',
      headers: { [TOKEN_HEADER]: token, 'Content-Type': 'application/json;charset=UTF-8' },
    }).catch(() => undefined);
  }
}

const openModals = new Set<string>();

/** True the first time a modal of this kind is asked for while this page lives: the page then leaves or reloads. */
function openOnce(kind: string): boolean {
  if (openModals.has(kind)) return false;
  openModals.add(kind);
  return true;
}

/** SPEC section 8: one reaction per failure kind, all titled 'System notice'. */
export function reactToFailure(status: number, message: string): void {
  const t = i18n.t.bind(i18n);
  const title = t('request.systemNotice');
  const ui = feedback();
  switch (status) {
    case 403:
      ui.notify('error', title, t('request.accessDenied'), NOTICE_SECONDS);
      return;
    case 404:
      ui.notify('error', title, t('request.notFound'), NOTICE_SECONDS);
      return;
    case 504:
      ui.notify('error', title, t('request.timeout'));
      return;
    case 401: {
      ui.notify('error', title, t('request.unauthorized'), NOTICE_SECONDS);
      if (currentToken()) {
        endSession();
        setTimeout(() => browser.reload(), RELOAD_AFTER_401_MS);
      }
      return;
    }
    case 500:
      if (currentToken() && meansTokenExpired(message)) {
        // every call of a starting console fails the same way: one modal says it
        if (!openOnce('loginExpired')) return;
        ui.modal('error', {
          title: t('request.loginExpired'),
          content: t('request.loginExpiredContent'),
          okText: t('request.relogin'),
          mask: { closable: false },
          keyboard: false,
          onOk: () => {
            endSession();
            browser.reload();
          },
        });
        return;
      }
      if (meansAuthorizationExpired(message)) {
        if (!openOnce('licenseExpired')) return;
        ui.modal('error', {
          title: t('request.licenseExpired'),
          okText: t('request.activate'),
          mask: { closable: false },
          keyboard: false,
          onOk: () => browser.assign('/user/active'),
        });
        return;
      }
      ui.notify('error', title, message || t('request.failed'), NOTICE_SECONDS);
      return;
    default:
      ui.notify('error', title, message || t('request.failed'), NOTICE_SECONDS);
  }
}

async function readEnvelope(response: Response): Promise<Envelope | null> {
  try {
    const body = (await response.json()) as unknown;
    return body && typeof body === 'object' && 'success' in body ? (body as Envelope) : null;
  } catch {
    return null;
  }
}

/** Sends one call and returns the response body; HTTP failures react as SPEC section 8 says, then throw. */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const response = await send(url, options);
  const body = await readEnvelope(response);
  if (!response.ok) {
    const message = body?.message ?? '';
    if (!options.silent) reactToFailure(response.status, message);
    throw new ApiError(response.status, message || i18n.t('request.failed'), body);
  }
  if (!body) throw new ApiError(response.status, i18n.t('request.failed'));
  return body as Envelope<T>;
}

/** 'Request exception: <reason>' for a call that got no answer. */
export function requestException(error: unknown): string {
  const reason = error instanceof Error && error.message ? error.message : i18n.t('request.failed');
  return `${i18n.t('request.exception')}${reason}`;
}

async function send(url: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const controller = new AbortController();
  const timeoutMs = options.timeout ?? Limits.apiTimeoutMs;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort);
  try {
    const data = options.data;
    return await fetch(buildUrl(url, options.baseURL ?? API_BASE, options.params, method), {
      method,
      headers: buildHeaders(url, data, options.headers),
      body: data === undefined ? undefined : data instanceof FormData ? data : JSON.stringify(data),
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) {
      if (!options.silent) reactToFailure(504, '');
      throw new ApiError(504, i18n.t('request.timeout'));
    }
    if (options.signal?.aborted) throw error;
    // no answer at all (the network, a refused connection): the origin's 'Request exception:' with what the browser says
    const text = requestException(error);
    if (!options.silent) feedback().notify('error', i18n.t('request.systemNotice'), text, NOTICE_SECONDS);
    throw new ApiError(0, text);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

export const http = {
  get: <T>(url: string, params?: Params, options?: RequestOptions) => request<T>(url, { ...options, method: 'GET', params }),
  post: <T>(url: string, data?: unknown, options?: RequestOptions) => request<T>(url, { ...options, method: 'POST', data }),
  put: <T>(url: string, data?: unknown, options?: RequestOptions) => request<T>(url, { ...options, method: 'PUT', data }),
  delete: <T>(url: string, params?: Params, options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'DELETE', params }),
  /** Long-running calls outside the API base (SPEC section 7: base '/', 60 s). */
  postLong: <T>(url: string, data?: unknown, options?: RequestOptions) =>
    request<T>(url, { ...options, method: 'POST', data, baseURL: '/', timeout: Limits.longPostTimeoutMs }),
  /** Downloads a file (export) and returns it with the server's file name when one is given. */
  async download(url: string, params?: Params, options?: RequestOptions): Promise<{ blob: Blob; fileName: string | null }> {
    const response = await send(url, { ...options, method: 'GET', params });
    if (!response.ok) {
      const body = await readEnvelope(response);
      if (!options?.silent) reactToFailure(response.status, body?.message ?? '');
      throw new ApiError(response.status, body?.message || i18n.t('request.failed'), body);
    }
    const disposition = response.headers.get('Content-Disposition') ?? '';
    const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
    return { blob: await response.blob(), fileName: match?.[1] ? decodeURIComponent(match[1]) : null };
  },
};

/** The result of a successful envelope; a refusal (success false) becomes an ApiError with the server message. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (!envelope.success) throw new ApiError(200, envelope.message || i18n.t('request.failed'), envelope);
  return envelope.result;
}
