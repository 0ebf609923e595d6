import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../../shared/api/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import LoginPage from './login.tsx';

const envelope = (result: unknown, success = true, message = '') => ({ success, message, code: success ? 200 : 500, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Administrator', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };

let loginAnswer: unknown;
let captchaCalls: number;
let loginBodies: unknown[];
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;

beforeEach(() => {
  localStorage.clear();
  useSession.getState().clear();
  captchaCalls = 0;
  loginBodies = [];
  notify = vi.fn();
  setFeedback({ notify, modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
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
});
