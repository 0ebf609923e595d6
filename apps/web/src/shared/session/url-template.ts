import { currentToken } from './session-store.ts';

declare global {
  interface Window {
    _CONFIG?: Record<string, string | number | boolean | undefined>;
  }
}

const PLACEHOLDER = /\{\{\s*([^}]+?)\s*\}\}/g;
const TOKEN_EXPRESSION = /^(token|ACCESS_TOKEN|Access-Token)$/i;
/** stands for the token while the URL's origin is worked out; no menu URL contains it */
const TOKEN_MARK = '\u0000token\u0000';

/** Does the (filled) URL lead to the console's own origin? Relative URLs do; anything unparsable does not. */
function isOwnOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Fills menu URL placeholders such as `{{ window._CONFIG['domianURL'] }}` or `{{token}}`.
 * Only window config values and the token are known; nothing is evaluated, unknown expressions become ''.
 * The viewer's token is filled in only when the URL leads to the console's own origin: another site never receives it.
 */
export function fillUrlTemplate(url: string): string {
  const filled = url.replace(PLACEHOLDER, (_whole, expression: string) => {
    const config = /^window\._CONFIG\s*(?:\[\s*['"]([\w.-]+)['"]\s*\]|\.(\w+))$/.exec(expression);
    if (config) {
      const value = window._CONFIG?.[config[1] ?? config[2] ?? ''];
      return value === undefined ? '' : String(value).replaceAll('\u0000', '');
    }
    if (TOKEN_EXPRESSION.test(expression)) return TOKEN_MARK;
    return '';
  });
  // judged on the final URL: a token placed inside the host changes the origin and is then left out
  const withToken = filled.replaceAll(TOKEN_MARK, currentToken() ?? '');
  return isOwnOrigin(withToken) ? withToken : filled.replaceAll(TOKEN_MARK, '');
}

export function isExternalUrl(url: string | null | undefined): url is string {
  return !!url && /^https?:\/\//i.test(url);
}
