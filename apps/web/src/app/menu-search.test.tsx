import type { MenuItem } from '@isps/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../shared/i18n/index.ts';
import { breadcrumbTrail, keepAlivePaths, menuSearchEntries } from './menu-model.tsx';

const meta = (title: string, over: Partial<MenuItem['meta']> = {}): MenuItem['meta'] => ({ title, keepAlive: false, internalOrExternal: false, ...over });
const item = (over: Partial<MenuItem> & Pick<MenuItem, 'path'>): MenuItem => ({
  id: over.path,
  name: over.path,
  component: 'layouts/RouteView',
  hidden: false,
  alwaysShow: false,
  route: '1',
  meta: meta(over.path),
  ...over,
});

const menu: MenuItem[] = [
  item({
    path: '/dashboard',
    meta: meta('menu.dashboard'),
    children: [
      item({ path: '/dashboard/analysis', component: 'dashboard/analysis', meta: meta('menu.dashboard.analysis') }),
      item({ path: '/dashboard/clock', component: 'dashboard/clock', meta: meta('menu.dashboard.clock', { keepAlive: true }) }),
      item({ path: '/dashboard/secret', component: 'dashboard/panel', hidden: true, meta: meta('menu.dashboard.panel') }),
    ],
  }),
  item({ path: 'https://docs.example.test/guide', component: '', route: '0', meta: meta('menu.monitor.apiDocs') }),
  item({ path: '/isps/report', component: 'layouts/IframePageView', meta: meta('menu.system.log', { url: 'https://reports.example.test/x', internalOrExternal: true }) }),
  item({ path: '/isps/frame', component: 'layouts/IframePageView', meta: meta('menu.system.dataLog') }),
  item({ path: '/system', meta: meta('menu.system'), alwaysShow: true, children: [item({ path: '/system/user', component: 'system/user' })] }),
];

describe('menu search', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-US');
  });

  it('lists every non-hidden item that leads somewhere, with its parents in the label', () => {
    const entries = menuSearchEntries(menu);
    expect(entries.map((e) => [e.label, e.target, e.newWindow])).toEqual([
      ['Dashboard / Home', '/dashboard/analysis', false],
      ['Dashboard / Clock', '/dashboard/clock', false],
      ['API documentation', 'https://docs.example.test/guide', true],
      ['System logs', 'https://reports.example.test/x', true],
      ['Data logs', '/isps/frame', true],
      ['System', '/system', false],
    ]);
  });

  it('gives the breadcrumb trail and the keep-alive pages', () => {
    expect(breadcrumbTrail(menu, '/dashboard/clock')).toEqual([
      { path: '/dashboard', titleKey: 'menu.dashboard' },
      { path: '/dashboard/clock', titleKey: 'menu.dashboard.clock' },
    ]);
    expect(breadcrumbTrail(menu, '/nowhere')).toEqual([]);
    expect([...keepAlivePaths(menu)]).toEqual(['/dashboard/clock']);
  });
});
