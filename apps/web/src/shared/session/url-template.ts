import { currentToken } from './session-store.ts';

declare global {
  interface Window {
    _CONFIG?: Record<string, string | number | boolean | undefined>;
  }
}

/**
 * Fills menu URL placeholders such as `{{ window._CONFIG['domianURL'] }}` or `{{token}}`.
 * Only window config values and the token are known; nothing is evaluated, unknown expressions become ''.
 */
export function fillUrlTemplate(url: string): string {
  return url.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_whole, expression: string) => {
    const config = /^window\._CONFIG\s*(?:\[\s*['"]([\w.-]+)['"]\s*\]|\.(\w+))$/.exec(expression);
    if (config) {
      const value = window._CONFIG?.[config[1] ?? config[2] ?? ''];
      return value === undefined ? '' : String(value);
    }
    if (/^(token|ACCESS_TOKEN|Access-Token)$/i.test(expression)) return currentToken() ?? '';
    return '';
  });
}

export function isExternalUrl(url: string | null | undefined): url is string {
  return !!url && /^https?:\/\//i.test(url);
}
