/**
 * The login page of a first visit is drawn before the console's script runs: index.html's login-shell script puts the
 * page, rendered at build time in each language (app/login-shell/render-login-shells.tsx), into #root and marks it.
 * A person can start typing at once; when the console draws the page it takes over what was typed and where the
 * caret was.
 */

/** The marker on #root while it holds the page drawn at build time. */
export const SHELL_MARK = 'data-login-shell';

/** The fields of the account form, by their `name`. */
const SHELL_FIELDS = ['username', 'password', 'captcha'] as const;
export type ShellField = (typeof SHELL_FIELDS)[number];

interface ShellForm {
  values: Record<ShellField, string>;
  /** the field the caret was in, if any */
  focused: ShellField | null;
}

// The shell's fields, found when the page is first drawn over the shell: once React has drawn it they are out of the
// document (and the mark is gone), so a later visit to the login page (after a logout) starts empty.
let fields: Partial<Record<ShellField, HTMLInputElement>> | null = null;

function shellFields(): Partial<Record<ShellField, HTMLInputElement>> {
  if (fields) return fields;
  const shell = document.querySelector(`[${SHELL_MARK}]`);
  if (!shell) return {};
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
  return { values, focused };
}

/** The console has drawn the login page over the shell (a layout effect of the page). */
export function endShell(): void {
  document.querySelector(`[${SHELL_MARK}]`)?.removeAttribute(SHELL_MARK);
}
