/**
 * The login page of a first visit is drawn before the console's script runs: index.html's login-shell script puts the
 * page, rendered at build time in each language (app/login-shell/render-login-shells.tsx), into #root and marks it.
 * A person can start typing at once; when the console draws the page it takes over what was typed and where the
 * caret was.
 */
import type { LoginSettings } from '@isps/contract';

/** The marker on #root while it holds the page drawn at build time. */
export const SHELL_MARK = 'data-login-shell';

/**
 * Parts of the page the shell's script works on before the console is there (the page's class names are hashed), and
 * what it leaves on #root for the console: the login settings it fetched (JSON), and that a submit is held.
 */
export const SHELL_PART = {
  captchaRow: 'data-login-captcha-row',
  captchaImage: 'data-login-captcha-image',
  checkKey: 'data-check-key',
  slider: 'data-login-slider',
  register: 'data-login-register',
  settings: 'data-login-settings',
  submit: 'data-login-submit',
} as const;

/** The fields of the account form, by their `name`. */
const SHELL_FIELDS = ['username', 'password', 'captcha'] as const;
export type ShellField = (typeof SHELL_FIELDS)[number];

interface ShellForm {
  values: Record<ShellField, string>;
  /** the field the caret was in, if any */
  focused: ShellField | null;
  /** the captcha the shell showed (its key, and the picture once it came), so what was read off it still holds */
  captcha: { checkKey: string; image: string | null } | null;
  /** the login settings the shell fetched, if they came before the console */
  settings: LoginSettings | null;
  /** the person sent the form before the console was there: the console sends it */
  submitted: boolean;
}

// The shell's fields, found when the page is first drawn over the shell: once React has drawn it they are out of the
// document (and the mark is gone), so a later visit to the login page (after a logout) starts empty.
let fields: Partial<Record<ShellField, HTMLInputElement>> | null = null;
let fieldsOf: Element | null = null;

function shellFields(): Partial<Record<ShellField, HTMLInputElement>> {
  const shell = document.querySelector(`[${SHELL_MARK}]`);
  // a shell drawn anew (a test's second page) is read anew
  if (fields && (!shell || shell === fieldsOf)) return fields;
  if (!shell) return {};
  fieldsOf = shell;
  fields = {};
  for (const name of SHELL_FIELDS) {
    const input = shell.querySelector(`input[name="${name}"]`);
    if (input instanceof HTMLInputElement) fields[name] = input;
  }
  return fields;
}

/** What was typed into the page drawn at build time, while it is still on screen; null otherwise. */
export function shellForm(): ShellForm | null {
  if (typeof document === 'undefined') return null;
  const fields = shellFields();
  const present = SHELL_FIELDS.filter((name) => fields[name]?.isConnected);
  if (present.length === 0) return null;
  const values = { username: '', password: '', captcha: '' };
  let focused: ShellField | null = null;
  for (const name of present) {
    const input = fields[name]!;
    values[name] = input.value;
    if (input === document.activeElement) focused = name;
  }
  const root = document.querySelector(`[${SHELL_MARK}]`);
  const button = root?.querySelector(`[${SHELL_PART.captchaImage}]`);
  const checkKey = button?.getAttribute(SHELL_PART.checkKey);
  const image = button?.querySelector('img')?.getAttribute('src') ?? null;
  return {
    values,
    focused,
    captcha: checkKey ? { checkKey, image } : null,
    settings: parseSettings(root?.getAttribute(SHELL_PART.settings)),
    submitted: root?.hasAttribute(SHELL_PART.submit) ?? false,
  };
}

function parseSettings(raw: string | null | undefined): LoginSettings | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<LoginSettings>;
    return typeof parsed.captcha === 'boolean' && typeof parsed.registration === 'string' ? { captcha: parsed.captcha, registration: parsed.registration } : null;
  } catch {
    return null;
  }
}

/** The console has drawn the login page over the shell (a layout effect of the page). */
export function endShell(): void {
  const root = document.querySelector(`[${SHELL_MARK}]`);
  root?.removeAttribute(SHELL_MARK);
  root?.removeAttribute(SHELL_PART.settings);
  root?.removeAttribute(SHELL_PART.submit);
}
