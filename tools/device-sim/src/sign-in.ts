import { createInterface } from 'node:readline';
import { ApiPath, type Envelope, type LoginBody } from '@isps/contract';

/**
 * Signs in as a person does (POST /sys/login) and answers the session token. The console must not ask for a captcha
 * (`LOGIN_CAPTCHA=off`); a refusal is thrown with the server's message.
 */
export async function signIn(apiBase: string, username: string, password: string): Promise<string> {
  const body: LoginBody = { username, password };
  const response = await fetch(`${apiBase}${ApiPath.login}`, { method: 'POST', headers: { 'content-type': 'application/json', lang: 'en-US' }, body: JSON.stringify(body) });
  const envelope = (await response.json().catch(() => null)) as Envelope<{ token?: string }> | null;
  if (!envelope?.success || typeof envelope.result?.token !== 'string') throw new Error(`sign-in refused: ${envelope?.message ?? `HTTP ${response.status}`}`);
  return envelope.result.token;
}

/** Asks one line on the terminal; with `hidden` what is typed is not shown (a password). */
export function ask(question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  if (hidden) {
    // echo nothing of the answer: readline writes each key through _writeToOutput
    const io = rl as unknown as { _writeToOutput(text: string): void };
    const write = io._writeToOutput.bind(rl);
    io._writeToOutput = (text: string) => write(text.startsWith(question) ? question : text.includes('\n') ? '\n' : '');
  }
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer);
    });
  });
}

export interface TokenSources {
  /** the environment (ISPS_TOKEN) */
  env: NodeJS.ProcessEnv;
  /** asks the person at the terminal; null when there is none (no TTY) */
  ask: ((question: string, hidden?: boolean) => Promise<string>) | null;
  signIn: (username: string, password: string) => Promise<string>;
}

/**
 * The session token the simulator provisions devices with, never from its command line (where other users of the
 * machine and the shell's history would read it): ISPS_TOKEN, else the administrator's user name and password asked
 * at the terminal, with which it signs in itself.
 */
export async function sessionToken(sources: TokenSources): Promise<string> {
  const fromEnv = sources.env.ISPS_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  if (!sources.ask) throw new Error('no session token: set ISPS_TOKEN, or run the simulator in a terminal to sign in with a user name and password');
  const username = (await sources.ask('User name (device:deviceCode:add and :audit, e.g. admin): ')).trim();
  const password = await sources.ask('Password: ', true);
  if (!username || !password) throw new Error('a user name and a password are needed to sign in');
  return sources.signIn(username, password);
}
