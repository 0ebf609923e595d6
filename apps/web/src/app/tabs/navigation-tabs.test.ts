import type { MenuItem } from '@isps/contract';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { followRouter, onNavigation } from '../navigation.ts';
import { tabCatalogue, tabForLocation } from './navigation-tabs.ts';
import { useTabs } from './tab-store.ts';

const meta = (title: string) => ({ title, keepAlive: false, internalOrExternal: false });
const page = (path: string, component: string, title: string): MenuItem => ({ id: path, path, name: path, component, hidden: false, alwaysShow: false, route: '1', meta: meta(title) });
const menu: MenuItem[] = [
  {
    ...page('/dashboard', 'layouts/RouteView', 'menu.dashboard'),
    redirect: '/dashboard/analysis',
    children: [page('/dashboard/analysis', 'dashboard/analysis', 'menu.dashboard.analysis'), page('/dashboard/clock', 'dashboard/clock', 'menu.dashboard.clock')],
  },
  {
    ...page('/system', 'layouts/RouteView', 'menu.system'),
    children: [
      page('/system/dict', 'system/dict', 'menu.system.dict'),
      page('/system/tenant', 'system/tenant', 'menu.system.tenant'),
      page('/system/position', 'system/position', 'menu.system.position'),
      // in the menu, but no page is built for it
      page('/system/unbuilt', 'system/not-a-page', 'menu.system.unbuilt'),
    ],
  },
];
const catalogue = tabCatalogue(menu);
const keys = () => useTabs.getState().tabs.map((tab) => tab.key);

afterEach(() => useTabs.getState().reset());

describe('the tab of a navigated address', () => {
  it('is the page with its menu title, the query being part of its key', () => {
    expect(tabForLocation({ pathname: '/system/dict', search: '?dictCode=sex' }, catalogue)).toEqual({ key: '/system/dict?dictCode=sex', pathname: '/system/dict', titleKey: 'menu.system.dict' });
    expect(tabForLocation({ pathname: '/404', search: '' }, catalogue)?.titleKey).toBe('exception.pageNotFound');
  });

  it('is none for an address that only passes on: a menu group, an unknown path, an unbuilt menu page', () => {
    for (const pathname of ['/system', '/dashboard', '/nowhere', '/system/unbuilt', '/']) expect(tabForLocation({ pathname, search: '' }, catalogue), pathname).toBeNull();
  });
});

describe('tabs that follow the router', () => {
  it('open for every navigation, those superseded before they rendered too, and none for a redirected unknown address', async () => {
    const router = createMemoryRouter([{ path: '*', element: null }], { initialEntries: ['/dashboard/analysis'] });
    const stopFollowing = followRouter(router);
    const stopListening = onNavigation((location) => {
      const tab = tabForLocation(location, catalogue);
      if (tab) useTabs.getState().open(tab);
    });
    try {
      // quick navigations, none awaited: nothing renders in between
      void router.navigate('/dashboard/clock');
      void router.navigate('/system/dict');
      void router.navigate('/system/tenant');
      void router.navigate('/system/position');
      // an unknown address is sent on to /404: one tab for it
      void router.navigate('/nowhere');
      await router.navigate('/404', { replace: true });
      expect(keys()).toEqual(['/dashboard/clock', '/system/dict', '/system/tenant', '/system/position', '/404']);
    } finally {
      stopListening();
      stopFollowing();
      router.dispose();
    }
  });
});
