import type { Language } from '../http.ts';

/**
 * The server's "token expired" message in each language, a module of its own: the web client recognises an expired
 * session by it without loading every language's messages.
 */
export const tokenExpiredMessages: Record<Language, string> = {
  'zh-CN': 'Token失效，请重新登录',
  'en-US': 'Token expired, please log in again',
  'ja-JP': 'トークンの有効期限が切れました。再度ログインしてください',
};
