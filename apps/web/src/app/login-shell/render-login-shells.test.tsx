import { LANGUAGES } from '@isps/contract';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { catalogues, i18n } from '../../shared/i18n/index.ts';
import LoginPage from '../../features/user/pages/login.tsx';
import { renderLoginShells } from './render-login-shells.tsx';
import { SHELL_MARK } from '../../features/user/login-shell.ts';

vi.stubGlobal(
  'fetch',
  vi.fn(async () => Response.json({ success: true, code: 200, message: '', result: 'data:image/svg+xml;base64,PHN2Zy8+', timestamp: 1 })),
);
afterAll(() => vi.unstubAllGlobals());

/** The page as the console draws it: into `container` (#root), over what it holds. */
function drawLogin(container?: HTMLElement) {
  const router = createMemoryRouter([{ path: '/user/login', element: <LoginPage /> }], { initialEntries: ['/user/login'] });
  return render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
    container ? { container } : {},
  );
}

function type(input: HTMLInputElement, value: string) {
  input.value = value;
}

describe('the login page drawn at build time', () => {
  it('is the page in each language, with its fields named for the hand-over', async () => {
    const { year, shells } = await renderLoginShells();
    expect(year).toBe(new Date().getFullYear());
    for (const language of LANGUAGES) {
      const page = document.createElement('div');
      page.innerHTML = shells[language];
      const messages = catalogues[language];
      expect(page.querySelector('h1')?.textContent).toBe(messages['app.productName']);
      expect(page.querySelector('input[name=username]')?.getAttribute('placeholder')).toBe(messages['login.username']);
      expect(page.querySelector('input[name=username]')?.hasAttribute('autofocus')).toBe(true);
      expect(page.querySelector('input[name=password]')?.getAttribute('type')).toBe('password');
      expect(page.querySelector('input[name=password]')?.getAttribute('placeholder')).toBe(messages['login.password']);
      expect(page.querySelector('input[name=captcha]')).not.toBeNull();
      expect(page.querySelector('button[type=submit]')?.textContent).toBe(messages['login.submit']);
      // the shell's script writes the visitor's year over the build's
      expect(shells[language]).toContain(`© ${year}`);
      // the language switch names the shell's language
      expect(page.querySelector(`header [lang="${language}"]`)?.textContent).toBe(messages[`language.${language}`]);
    }
  });

  it('hands what was typed, and the field the caret is in, to the console drawing the page', async () => {
    const { shells } = await renderLoginShells();
    await act(() => i18n.changeLanguage('zh-CN'));
    const root = document.createElement('div');
    root.id = 'root';
    root.setAttribute(SHELL_MARK, '');
    root.innerHTML = shells['zh-CN'];
    document.body.append(root);
    type(root.querySelector('input[name=username]')!, 'admin');
    type(root.querySelector('input[name=password]')!, 'Secret#1');
    root.querySelector<HTMLInputElement>('input[name=password]')!.focus();

    drawLogin(root);
    const password = screen.getByLabelText('密码') as HTMLInputElement;
    expect((screen.getByRole('textbox', { name: '账号' }) as HTMLInputElement).value).toBe('admin');
    expect(password.value).toBe('Secret#1');
    expect(document.activeElement).toBe(password);
    expect(root.hasAttribute(SHELL_MARK)).toBe(false);
    expect(root.querySelectorAll('input[name=password]')).toHaveLength(1);
  });

  it('is not taken over again once gone: a later visit to the login page starts empty', () => {
    drawLogin();
    expect((screen.getByRole('textbox', { name: '账号' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('密码') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: '账号' }));
  });
});
