import type { MenuItem } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { menuRoutes, sideMenu } from './menu-model.tsx';
import { pageModuleKey } from './page-registry.tsx';

const item = (over: Partial<MenuItem> & Pick<MenuItem, 'path'>): MenuItem => ({
  id: over.path,
  name: over.path,
  component: 'layouts/RouteView',
  hidden: false,
  alwaysShow: false,
  route: '1',
  meta: { title: 'menu.dashboard', keepAlive: false, internalOrExternal: false },
  ...over,
});

const menu: MenuItem[] = [
  item({
    path: '/dashboard',
    redirect: '/dashboard/analysis',
    children: [
      item({ path: '/dashboard/analysis', component: 'dashboard/analysis', meta: { title: 'menu.dashboard.analysis', keepAlive: false, internalOrExternal: false } }),
      item({ path: '/dashboard/clock', component: 'dashboard/clock', meta: { title: 'menu.dashboard.clock', keepAlive: false, internalOrExternal: false } }),
    ],
  }),
  item({ path: '/isps/later', component: 'system/UserList', hidden: true, route: '0' }),
  item({ path: '/isps/unknown', component: 'nowhere/screen' }),
  item({ path: '/docs', component: 'layouts/IframePageView', meta: { title: 'Docs', url: 'https://docs.example.test', keepAlive: false, internalOrExternal: true } }),
];

describe('menu routes', () => {
  it('maps components to feature pages', () => {
    expect(pageModuleKey('dashboard/analysis')).toBe('../features/dashboard/pages/analysis.tsx');
    expect(pageModuleKey('system/UserList')).toBe('../features/system/pages/user-list.tsx');
  });

  it('registers pages and pass-through redirects, skips route 0 and external items', () => {
    expect(menuRoutes(menu)).toEqual([
      { kind: 'redirect', path: '/dashboard', to: '/dashboard/analysis', title: 'menu.dashboard' },
      { kind: 'page', path: '/dashboard/analysis', component: 'dashboard/analysis', title: 'menu.dashboard.analysis' },
      { kind: 'page', path: '/dashboard/clock', component: 'dashboard/clock', title: 'menu.dashboard.clock' },
      { kind: 'missing', path: '/isps/unknown', title: 'menu.dashboard' },
    ]);
  });

  it('shows visible items with translated titles and keeps external links', () => {
    const side = sideMenu(menu);
    expect(side.map((m) => m.path)).toEqual(['/dashboard', '/isps/unknown', 'https://docs.example.test']);
    expect(side[0]?.children?.map((m) => m.name)).toEqual(['首页', '时钟']);
    expect(side[2]?.name).toBe('Docs');
    expect(side[2]?.external).toBe(true);
  });

  it('routes and titles by our page key and title key when the server names the origin console’s view and a translated title', () => {
    const served = item({
      path: '/dashboard/analysis',
      component: 'dashboard/Analysis',
      meta: { title: 'Analysis (in the reader’s language)', titleKey: 'menu.dashboard.analysis', pageKey: 'dashboard/analysis', keepAlive: false, internalOrExternal: false },
    });
    expect(menuRoutes([served])).toEqual([{ kind: 'page', path: '/dashboard/analysis', component: 'dashboard/analysis', title: 'menu.dashboard.analysis' }]);
    expect(sideMenu([served])[0]?.name).toBe('首页');
  });

  it('folds children away under alwaysShow', () => {
    expect(sideMenu([item({ path: '/a', alwaysShow: true, children: [item({ path: '/a/b' })] })])[0]?.hideChildrenInMenu).toBe(true);
  });
});
