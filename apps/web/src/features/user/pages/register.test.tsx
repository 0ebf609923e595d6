import { AccountPath, LANGUAGES, translate, type Language, type MessageKey } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { readIn, renderInConsole } from '../../../test-providers.tsx';
import RegisterPage from './register.tsx';

const envelope = (result: unknown, success = true, message = '') => ({ success, message, code: success ? 200 : 500, result, timestamp: 1 });

let settings: { captcha: boolean; registration: string };
let smsBodies: Record<string, unknown>[];
let captchaKeys: string[];

beforeEach(() => {
  smsBodies = [];
  captchaKeys = [];
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/sys/account/loginSettings')) return Response.json(envelope(settings));
      if (url.includes('/sys/randomImage/')) {
        captchaKeys.push(decodeURIComponent(url.split('/sys/randomImage/')[1]!.split('?')[0]!));
        return Response.json(envelope('data:image/svg+xml;base64,PHN2Zy8+'));
      }
      if (url.includes('/sys/sms')) {
        smsBodies.push(JSON.parse(String(init?.body)));
        return Response.json(envelope(null, true, 'sent'));
      }
      return Response.json(envelope(null));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderRegister(entry = '/user/register') {
  const router = createMemoryRouter([{ path: '/user/register', element: <RegisterPage /> }], { initialEntries: [entry] });
  renderInConsole(<RouterProvider router={router} />);
}

async function typePhoneAndAskCode() {
  fireEvent.change(screen.getByRole('textbox', { name: '手机号' }), { target: { value: '13900001111' } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
  });
}

describe('registration page', () => {
  it('says registration is not open, and offers no form to send, where the tenant has it off', async () => {
    settings = { captcha: true, registration: 'off' };
    renderRegister();
    expect(await screen.findByText('此处未开放注册，请联系管理员开通账号。')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: '手机号' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('asks for the captcha before "Get code", sends it with its key and the tenant, then shows a new one', async () => {
    settings = { captcha: true, registration: 'open' };
    renderRegister('/user/register?tenant=north');
    await waitFor(() => expect(captchaKeys).toHaveLength(1));
    await typePhoneAndAskCode();
    expect(await screen.findByText('请输入验证码')).toBeTruthy();
    expect(smsBodies).toEqual([]);

    fireEvent.change(screen.getByRole('textbox', { name: '验证码' }), { target: { value: 'k7pq' } });
    await typePhoneAndAskCode();
    await waitFor(() => expect(smsBodies).toHaveLength(1));
    expect(smsBodies[0]).toEqual({ mobile: '13900001111', smsmode: '1', captcha: 'k7pq', checkKey: captchaKeys[0], tenant: 'north' });
    // used up by the server: a new picture, the field emptied
    await waitFor(() => expect(captchaKeys).toHaveLength(2));
    expect((screen.getByRole('textbox', { name: '验证码' }) as HTMLInputElement).value).toBe('');
  });

  it('asks for no captcha when the server has it off', async () => {
    settings = { captcha: false, registration: 'open' };
    renderRegister();
    await waitFor(() => expect(screen.queryByRole('textbox', { name: '验证码' })).toBeNull());
    await typePhoneAndAskCode();
    await waitFor(() => expect(smsBodies).toHaveLength(1));
    expect(smsBodies[0]).toEqual({ mobile: '13900001111', smsmode: '1' });
  });
});

const TAKEN: Record<string, MessageKey> = { taken: 'duplicate.userName', 'taken@example.com': 'duplicate.email', '13700000099': 'duplicate.phone' };

describe.each(LANGUAGES)('the registration form in %s', (lang) => {
  let checked: Array<{ field: string | null; value: string | null; lang: string | null }>;
  beforeEach(async () => {
    await readIn(lang);
    settings = { captcha: false, registration: 'open' };
    checked = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const url = new URL(input, 'http://console.test');
        if (url.pathname.endsWith('/sys/account/loginSettings')) return Response.json(envelope(settings));
        if (url.pathname.endsWith(AccountPath.registerCheck)) {
          const asked = new Headers(init?.headers).get('lang') as Language;
          const value = url.searchParams.get('value');
          checked.push({ field: url.searchParams.get('field'), value, lang: asked });
          // the server compares e-mail addresses without their case
          const taken = TAKEN[value?.toLowerCase() ?? ''];
          return Response.json(taken ? envelope(null, false, translate(asked, taken)) : envelope(null));
        }
        return Response.json(envelope(null));
      }),
    );
  });
  afterAll(async () => {
    localStorage.clear();
    await i18n.changeLanguage('zh-CN');
  });

  const field = (key: string) => screen.getByRole('textbox', { name: i18n.t(key) });

  it('rates a new password low, middle and high', async () => {
    renderRegister();
    const password = await screen.findByLabelText(i18n.t('register.password'), { selector: 'input' });
    for (const [value, level] of [['abcdefgh', 'register.strengthLow'], ['Abcdef12', 'register.strengthMiddle'], ['Abcdef12#xyz', 'register.strengthHigh']] as const) {
      fireEvent.change(password, { target: { value } });
      await waitFor(() => expect(screen.getByRole('status').textContent).toBe(i18n.t('register.strength', { level: i18n.t(level) })));
    }
  });

  it('refuses a taken user name, e-mail and phone with the server’s words as the field is left, and a free value takes the refusal away', async () => {
    renderRegister();
    await screen.findByRole('textbox', { name: i18n.t('register.username') });
    for (const [key, value, refusal] of [['register.username', 'taken', 'duplicate.userName'], ['register.email', 'TAKEN@example.com', 'duplicate.email'], ['register.phone', '13700000099', 'duplicate.phone']] as const) {
      fireEvent.change(field(key), { target: { value } });
      await act(async () => {
        fireEvent.blur(field(key));
      });
      expect(await screen.findByText(translate(lang, refusal))).toBeTruthy();
    }
    expect(checked).toEqual([
      { field: 'username', value: 'taken', lang },
      { field: 'email', value: 'TAKEN@example.com', lang },
      { field: 'phone', value: '13700000099', lang },
    ]);
    fireEvent.change(field('register.email'), { target: { value: 'someone.else@example.com' } });
    await act(async () => {
      fireEvent.blur(field('register.email'));
    });
    await waitFor(() => expect(screen.queryByText(translate(lang, 'duplicate.email'))).toBeNull());
    expect(screen.getByText(translate(lang, 'duplicate.phone'))).toBeTruthy();
  });
});
