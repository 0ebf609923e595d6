import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import LoginPage from './login.tsx';

const envelope = (result: unknown, success = true, message = '') => ({ success, message, code: success ? 200 : 500, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Administrator', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };

let loginAnswer: unknown;
let loginSettings: { captcha: boolean; registration: string };
let settingsCalls: string[];
let captchaCalls: number;
let loginBodies: unknown[];
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;

beforeEach(() => {
  localStorage.clear();
  useSession.getState().clear();
  captchaCalls = 0;
  loginBodies = [];
  loginSettings = { captcha: true, registration: 'off' };
  settingsCalls = [];
  notify = vi.fn();
  setFeedback({ notify, modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.includes('/sys/account/loginSettings')) {
        settingsCalls.push(url);
        return Response.json(envelope(loginSettings));
      }
      if (url.includes('/sys/randomImage/')) {
        captchaCalls += 1;
        return Response.json(envelope(`data:image/svg+xml;base64,PHN2Zy8+#${captchaCalls}`));
      }
      loginBodies.push(JSON.parse(String(init.body)));
      return Response.json(loginAnswer);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderLogin(entry = '/user/login') {
  const router = createMemoryRouter(
    [
      { path: '/user/login', element: <LoginPage /> },
      { path: '*', element: <p>arrived</p> },
    ],
    { initialEntries: [entry] },
  );
  // inside antd's App, as the console's providers put it: the page closes its notices through it
  renderInConsole(<RouterProvider router={router} />);
  return router;
}

async function fillAndSubmit(password = 'secret') {
  fireEvent.change(screen.getByRole('textbox', { name: '账号' }), { target: { value: 'admin' } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  fireEvent.change(screen.getByRole('textbox', { name: '验证码' }), { target: { value: 'ab12' } });
  fireEvent.keyDown(screen.getByRole('slider', { name: '滑块验证' }), { key: 'End' });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
  });
}

describe('login page', () => {
  it('draws the account form without antd (and without a query cache)', async () => {
    const router = createMemoryRouter([{ path: '/user/login', element: <LoginPage /> }], { initialEntries: ['/user/login'] });
    render(
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    );
    await waitFor(() => expect(screen.getByRole('img', { name: '验证码图片，点击刷新' })).toBeTruthy());
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
    expect(document.querySelector('[class*="ant-"]')).toBeNull();
  });

  it('labels its fields and refuses to submit empty ones', async () => {
    renderLogin();
    await waitFor(() => expect(screen.getByRole('img', { name: '验证码图片，点击刷新' })).toBeTruthy());
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '登录' }));
    });
    expect(await screen.findByText('请输入账号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    expect(screen.getByText('请将滑块拖动到最右边')).toBeTruthy();
    expect(loginBodies).toEqual([]);
  });

  it('shows the server refusal and fetches a new captcha', async () => {
    loginAnswer = envelope(null, false, '用户名或密码错误');
    renderLogin();
    await waitFor(() => expect(captchaCalls).toBe(1));
    await fillAndSubmit();
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', '登录失败', '用户名或密码错误', 4));
    await waitFor(() => expect(captchaCalls).toBe(2));
    // a new attempt needs the slider again
    expect(screen.getByRole('slider', { name: '滑块验证' }).getAttribute('aria-valuenow')).toBe('0');
    expect(loginBodies[0]).toMatchObject({ username: 'admin', password: 'secret', captcha: 'ab12' });
    expect(useSession.getState().token).toBeNull();
  });

  it('stores the session and goes to the wanted page', async () => {
    loginAnswer = envelope({ token: 'tok', userInfo, departs: [], multi_depart: 0, sysAllDictItems: {}, tenantList: [] });
    const router = renderLogin(`/user/login?redirect=${encodeURIComponent('/dashboard/clock?a=1')}`);
    await waitFor(() => expect(captchaCalls).toBe(1));
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/clock'));
    expect(router.state.location.search).toBe('?a=1');
    expect(JSON.parse(localStorage.getItem('pro__Access-Token') ?? '{}')).toMatchObject({ value: 'tok' });
    expect(JSON.parse(localStorage.getItem('pro__Login_Userinfo') ?? '{}').value.username).toBe('admin');
  });

  it('checks a field as it changes, and shows the pending state while the server answers', async () => {
    let answer: (value: Response) => void = () => undefined;
    loginAnswer = envelope(null, false, 'no');
    renderLogin();
    await waitFor(() => expect(captchaCalls).toBe(1));
    const username = screen.getByRole('textbox', { name: '账号' });
    fireEvent.change(username, { target: { value: 'a' } });
    expect(screen.queryByText('请输入账号')).toBeNull();
    fireEvent.change(username, { target: { value: '  ' } });
    expect(screen.getByText('请输入账号')).toBeTruthy();
    expect(username.getAttribute('aria-invalid')).toBe('true');
    vi.mocked(fetch).mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    await fillAndSubmit();
    const submit = screen.getByRole('button', { name: '登录' });
    expect(submit.getAttribute('aria-busy')).toBe('true');
    await act(async () => answer(Response.json(loginAnswer)));
    await waitFor(() => expect(submit.getAttribute('aria-busy')).toBeNull());
  });

  it('submits by the form (Enter in a field) with the slider moved by the keyboard', async () => {
    loginAnswer = envelope(null, false, '用户名或密码错误');
    renderLogin();
    await waitFor(() => expect(captchaCalls).toBe(1));
    fireEvent.change(screen.getByRole('textbox', { name: '账号' }), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } });
    fireEvent.change(screen.getByRole('textbox', { name: '验证码' }), { target: { value: 'ab12' } });
    const slider = screen.getByRole('slider', { name: '滑块验证' });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    fireEvent.keyDown(slider, { key: 'End' });
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    await act(async () => {
      fireEvent.submit(screen.getByRole('textbox', { name: '账号' }).closest('form')!);
    });
    await waitFor(() => expect(loginBodies).toHaveLength(1));
  });

  it('moves between the account and phone tabs with the arrow keys', async () => {
    renderLogin();
    const account = screen.getByRole('tab', { name: '账号密码登录' });
    expect(account.getAttribute('aria-selected')).toBe('true');
    account.focus();
    fireEvent.keyDown(account, { key: 'ArrowRight' });
    const phone = screen.getByRole('tab', { name: '手机验证码登录' });
    expect(phone.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(phone);
    expect(await screen.findByLabelText('手机号', undefined, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: '账号' })).toBeNull();
    fireEvent.keyDown(phone, { key: 'ArrowLeft' });
    expect(account.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('textbox', { name: '账号' })).toBeTruthy();
  }, 30_000);

  it('asks for the second factor when the server does, and goes back to the form', async () => {
    loginAnswer = envelope({ secondFactorRequired: true, challenge: 'ch-1', enrolled: true });
    renderLogin();
    await waitFor(() => expect(captchaCalls).toBe(1));
    await fillAndSubmit();
    expect(await screen.findByLabelText('6 位验证码', undefined, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: '账号' })).toBeNull();
    expect(useSession.getState().token).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '返回登录' }));
    });
    expect(await screen.findByRole('textbox', { name: '账号' })).toBeTruthy();
  }, 30_000);

  it('asks for no captcha and no slider when the server has turned it off (LOGIN_CAPTCHA=off)', async () => {
    loginSettings = { captcha: false, registration: 'off' };
    loginAnswer = envelope(null, false, '用户名或密码错误');
    renderLogin();
    await waitFor(() => expect(screen.queryByRole('textbox', { name: '验证码' })).toBeNull());
    expect(screen.queryByRole('slider', { name: '滑块验证' })).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: '账号' }), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '登录' }));
    });
    await waitFor(() => expect(loginBodies).toHaveLength(1));
    expect(loginBodies[0]).toEqual({ username: 'admin', password: 'secret' });
    expect(screen.queryByText('请输入验证码')).toBeNull();
  });

  it('shows the register link only where the tenant lets strangers register, for the tenant the page names', async () => {
    renderLogin('/user/login?tenant=north');
    await waitFor(() => expect(settingsCalls).toHaveLength(1));
    expect(settingsCalls[0]).toContain('tenant=north');
    expect(screen.queryByRole('link', { name: '注册账户' })).toBeNull();
    expect(screen.getByRole('link', { name: '忘记密码' })).toBeTruthy();
    cleanup();

    loginSettings = { captcha: true, registration: 'approval' };
    renderLogin('/user/login?tenant=north');
    const link = await screen.findByRole('link', { name: '注册账户' });
    expect(link.getAttribute('href')).toBe('/user/register?tenant=north');
  });
});
