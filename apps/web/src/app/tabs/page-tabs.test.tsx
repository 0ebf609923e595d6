import { act, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { Suspense, use } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../shared/i18n/index.ts';
import { HOME_PATH } from '../route-guard.ts';
import { PageTabs } from './page-tabs.tsx';
import { useTabs } from './tab-store.ts';

/** A page still loading: navigating to it keeps the router's render (a transition) pending. */
const never = new Promise<never>(() => undefined);
function LoadingPage(): never {
  return use(never);
}

function Shell() {
  const location = useLocation();
  return (
    <>
      <PageTabs activeKey={`${location.pathname}${location.search}`} />
      <Suspense fallback="loading">
        <Outlet />
      </Suspense>
    </>
  );
}

afterEach(() => useTabs.getState().reset());

describe('the multi-page bar', () => {
  it('closing the page the address bar is on leaves it, even while that page is still rendering', async () => {
    window.history.replaceState(null, '', '/system/dict');
    const router = createBrowserRouter([
      {
        path: '/',
        element: <Shell />,
        children: [
          { path: HOME_PATH.slice(1), element: <p>home page</p> },
          { path: 'system/dict', element: <p>dictionary page</p> },
          { path: 'system/tenant', element: <LoadingPage /> },
        ],
      },
    ]);
    for (const [path, titleKey] of [
      [HOME_PATH, 'menu.dashboard.analysis'],
      ['/system/dict', 'menu.system.dict'],
      ['/system/tenant', 'menu.system.tenant'],
    ] as const) {
      useTabs.getState().open({ key: path, pathname: path, titleKey });
    }
    render(
      <I18nextProvider i18n={i18n}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </I18nextProvider>,
    );
    await screen.findByText('dictionary page');

    await act(() => router.navigate('/system/tenant'));
    // the address moved on while the screen still shows the page being left
    expect(window.location.pathname).toBe('/system/tenant');
    expect(screen.getByText('dictionary page')).toBeTruthy();

    const tenantTab = screen.getByText(i18n.t('menu.system.tenant')).closest('.ant-tabs-tab');
    const remove = tenantTab?.querySelector('button');
    expect(remove).toBeTruthy();
    act(() => remove?.click());
    // its left-hand neighbour is shown, and the address follows
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/dict'));
    expect(window.location.pathname).toBe('/system/dict');
    expect(useTabs.getState().tabs.map((t) => t.key)).toEqual([HOME_PATH, '/system/dict']);
    router.dispose();
  });
});
