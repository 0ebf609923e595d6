import { AccountPath, ApiPath } from '@isps/contract';
import { act, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/i18n/index.ts';
import LoginPage from '../../features/user/pages/login.tsx';
import { SHELL_MARK, SHELL_PART } from '../../features/user/login-shell.ts';
import { renderLoginShells } from './render-login-shells.tsx';
import { loginShellScript } from './shell-script.ts';

const envelope = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 1 });
const PICTURE = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

let script = '';
let settings = { captcha: true, registration: 'off' };
let requests: { url: string; body: unknown }[] = [];

beforeAll(async () => {
  const { year, shells } = await renderLoginShells();
  // the console draws in the shell's language (zh-CN: none was chosen)
  await i18n.changeLanguage('zh-CN');
  script = loginShellScript({ shells, year, entry: '/assets/index-test.js', apiBase: '/api', paths: { randomImage: ApiPath.randomImage, loginSettings: AccountPath.loginSettings }, loginPaths: ['/user/login'], events: ['keydown'], waitMs: 60_000 });
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.getElementById('root')?.remove();
  document.head.querySelectorAll('script[src="/assets/index-test.js"]').forEach((s) => s.remove());
});

/** index.html on a first visit: an empty #root, then the shell's script, before the console's script has come. */
async function openShell(search = ''): Promise<HTMLElement> {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ url, body: init?.body ? JSON.parse(String(init.body)) : null });
      if (url.includes('/sys/randomImage/')) return Response.json(envelope(PICTURE));
      if (url.includes('/sys/account/loginSettings')) return Response.json(envelope(settings));
      return Response.json({ success: false, code: 500, message: '用户名或密码错误', result: null, timestamp: 1 });
    }),
  );
  localStorage.clear();
  window.history.replaceState(null, '', `/user/login${search}`);
  const root = document.createElement('div');
  root.id = 'root';
  document.body.append(root);
  new Function(script)();
  expect(root.hasAttribute(SHELL_MARK)).toBe(true);
  // the server's two answers
  await waitFor(() => expect(root.hasAttribute(SHELL_PART.settings)).toBe(true));
  return root;
}

function drawConsole(root: HTMLElement) {
  const router = createMemoryRouter([{ path: '/user/login', element: <LoginPage /> }, { path: '*', element: <p>arrived</p> }], { initialEntries: [`${window.location.pathname}${window.location.search}`] });
  return render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
    { container: root },
  );
}

describe("the drawn login page's own script", () => {
  it('shows the captcha picture at once under a key the console takes over, and the register link where the tenant allows it', async () => {
    settings = { captcha: true, registration: 'open' };
    const root = await openShell('?tenant=north');
    const button = root.querySelector(`[${SHELL_PART.captchaImage}]`)!;
    await waitFor(() => expect(button.querySelector('img')?.getAttribute('src')).toBe(PICTURE));
    const key = button.getAttribute(SHELL_PART.checkKey)!;
    expect(key).toMatch(/^[a-z0-9]+_[0-9a-f]{32}$/);
    expect(requests.map((r) => r.url)).toEqual(expect.arrayContaining([`/api/sys/randomImage/${key}`, '/api/sys/account/loginSettings?tenant=north']));
    expect((root.querySelector(`[${SHELL_PART.register}]`) as HTMLElement).hidden).toBe(false);
    // the slider is not offered before the console can follow a drag
    expect((root.querySelector(`[${SHELL_PART.slider}]`) as HTMLElement).style.visibility).toBe('hidden');

    await act(async () => {
      drawConsole(root);
    });
    // the console shows the same picture, asks for no other, and sends its key with what was read off it
    expect(screen.getByRole('img', { name: '验证码图片，点击刷新' }).getAttribute('src')).toBe(PICTURE);
    expect(requests.filter((r) => r.url.includes('/sys/randomImage/'))).toHaveLength(1);
    expect(screen.getByRole('link', { name: '注册账户' }).getAttribute('href')).toBe('/user/register?tenant=north');
  });

  it('holds a submit made before the console is there (Enter, a password manager) and the console sends it', async () => {
    settings = { captcha: false, registration: 'off' };
    const root = await openShell();
    expect((root.querySelector(`[${SHELL_PART.captchaRow}]`) as HTMLElement).hidden).toBe(true);
    expect((root.querySelector(`[${SHELL_PART.register}]`) as HTMLElement).hidden).toBe(true);
    (root.querySelector('input[name=username]') as HTMLInputElement).value = 'admin';
    (root.querySelector('input[name=password]') as HTMLInputElement).value = 'Secret#9';
    const form = root.querySelector('form')!;
    // a password manager's submit(): no event of its own, and it would send the password in the address
    form.submit();
    expect(window.location.pathname).toBe('/user/login');
    expect(window.location.search).toBe('');
    expect(root.hasAttribute(SHELL_PART.submit)).toBe(true);
    expect(root.querySelector('button[type=submit]')?.getAttribute('aria-busy')).toBe('true');
    // the console's script is asked for at once, not after the idle wait
    expect(document.head.querySelector('script[src="/assets/index-test.js"]')).not.toBeNull();
    expect(requests.filter((r) => r.url.includes('/sys/login'))).toEqual([]);

    await act(async () => {
      drawConsole(root);
    });
    await waitFor(() => expect(requests.filter((r) => r.url.endsWith('/sys/login'))).toHaveLength(1));
    expect(requests.find((r) => r.url.endsWith('/sys/login'))?.body).toEqual({ username: 'admin', password: 'Secret#9' });
    expect(root.hasAttribute(SHELL_PART.submit)).toBe(false);
  });
});

describe("the drawn login page's light or dark", () => {
  afterEach(() => {
    delete document.documentElement.dataset.theme;
    document.documentElement.style.colorScheme = '';
    localStorage.clear();
  });

  it('marks the page dark before it is drawn when the settings drawer kept dark, and leaves it light otherwise', () => {
    const run = (stored: string | null) => {
      delete document.documentElement.dataset.theme;
      localStorage.clear();
      if (stored !== null) localStorage.setItem('pro__layout-settings', stored);
      window.history.replaceState(null, '', '/user/login');
      vi.stubGlobal('fetch', vi.fn(async () => Response.json(envelope(settings))));
      new Function(script)();
      return document.documentElement.dataset.theme;
    };
    expect(run(JSON.stringify({ value: { contentTheme: 'dark' }, expire: null }))).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(run(JSON.stringify({ value: { contentTheme: 'light' }, expire: null }))).toBeUndefined();
    expect(run('not json')).toBeUndefined();
    expect(run(null)).toBeUndefined();
  });
});
