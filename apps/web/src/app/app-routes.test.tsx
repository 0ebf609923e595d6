import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItem } from '@isps/contract';
import { queryClient, setFeedback, type Feedback } from '../shared/api/index.ts';
import { i18n } from '../shared/i18n/index.ts';
import { useSession } from '../shared/session/index.ts';
import { expectWelcome, takeWelcome } from '../features/user/index.ts';
import { AppRoutes } from './app-routes.tsx';

const userInfo = { id: '1', username: 'admin', realname: 'Administrator', nickname: 'Admin', orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const meta = (title: string) => ({ title, keepAlive: false, internalOrExternal: false });
const menu: MenuItem[] = [
  {
    id: 'd', path: '/dashboard', name: 'dashboard', component: 'layouts/RouteView', hidden: false, alwaysShow: false, route: '1', redirect: '/dashboard/analysis', meta: meta('menu.dashboard'),
    children: [
      { id: 'c', path: '/dashboard/clock', name: 'clock', component: 'dashboard/clock', hidden: false, alwaysShow: false, route: '1', meta: meta('menu.dashboard.clock') },
    ],
  },
];

let permissionAnswer: unknown;
let calls: string[];
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  useSession.getState().clear();
  calls = [];
  notify = vi.fn();
  setFeedback({ notify, modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url.includes('getUserPermissionByToken')) return Response.json(permissionAnswer);
      return Response.json({ success: true, message: '', code: 200, result: null, timestamp: 1 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

/** `welcome`: arriving from the login page, which asks the console to greet. */
function renderAt(path: string, welcome = false) {
  if (welcome) expectWelcome();
  const router = createMemoryRouter([{ path: '*', element: <AppRoutes /> }], { initialEntries: [path] });
  render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return router;
}

describe('signed-in routes', () => {
  it('sends a visit without a token to login with the wanted path', async () => {
    const router = renderAt('/dashboard/clock?a=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/dashboard/clock?a=1')}`);
  });

  it('with a session, /user goes to /user/login and on to home (SPEC section 2)', async () => {
    useSession.getState().signIn('tok', userInfo);
    permissionAnswer = { success: true, message: '', code: 200, result: { menu, auth: [], allAuth: [] }, timestamp: 1 };
    const router = renderAt('/user');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/analysis'));
  });

  it('without a session, /user goes to the login page itself', async () => {
    const router = renderAt('/user');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.search).toBe('');
  });

  it('an empty menu is a permission error: notice, logout, back to login', async () => {
    useSession.getState().signIn('tok', userInfo);
    permissionAnswer = { success: true, message: '', code: 200, result: { menu: [], auth: [], allAuth: [] }, timestamp: 1 };
    const router = renderAt('/dashboard/analysis', true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(notify).toHaveBeenCalledWith('error', '系统提示', '您没有菜单权限，请联系管理员', 4);
    // turned away, so not welcomed first
    expect(notify.mock.calls.filter(([kind]) => kind === 'success')).toEqual([]);
    expect(useSession.getState().token).toBeNull();
    expect(calls.some((url) => url === '/api/sys/logout')).toBe(true);
  });

  it('registers the menu routes once and opens the deep link inside the layout', async () => {
    useSession.getState().signIn('tok', userInfo);
    permissionAnswer = { success: true, message: '', code: 200, result: { menu, auth: [], allAuth: [] }, timestamp: 1 };
    const router = renderAt('/dashboard/clock', true);
    expect(await screen.findByText(/时区/, undefined, { timeout: 20_000 })).toBeTruthy();
    // greeted once the menu is in, and once only
    await waitFor(() => expect(notify.mock.calls.filter(([kind, title]) => kind === 'success' && title === '欢迎')).toHaveLength(1));
    expect(takeWelcome()).toBe(false);
    expect(screen.getByRole('button', { name: '用户菜单' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '语言' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('时钟 - ISPS 管理控制台'));
    // '/dashboard' passes through to its redirect, a console page this menu does not hold: access denied.
    await router.navigate('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/exception/403'));
    expect(await screen.findByText('抱歉，你无权访问该页面')).toBeTruthy();
    // a page of the console the user may not see (the user list, an area of them) is denied, not missing
    for (const path of ['/system/user', '/system/user/', '/device']) {
      await router.navigate('/dashboard/clock');
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/clock'));
      await router.navigate(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/exception/403'));
    }
    // unknown addresses are still not found (every seeded screen has its page now: the order list was the last)
    for (const path of ['/nowhere', '/system/nowhere', '/system/user/extra']) {
      await router.navigate(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    }
    expect(await screen.findByText('抱歉，您访问的页面不存在。')).toBeTruthy();
    expect(calls.filter((url) => url.includes('getUserPermissionByToken'))).toHaveLength(1);
    // The first render loads the whole layout (ProLayout) into jsdom, which takes seconds on a busy machine.
  });
});
