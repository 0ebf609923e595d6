import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-components';
import type { MenuItem } from '@isps/contract';
import { Breadcrumb, Button, Tooltip, theme } from 'antd';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { EmergencyAlarm } from '../../features/emergency/index.ts';
import { KeyOverdueNotices } from '../../features/keys/index.ts';
import { PatrolMissedNotices } from '../../features/patrol/index.ts';
import { storedLanguage, translateTitle } from '../../shared/i18n/index.ts';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, headerHidden, useLayoutSettings } from '../../shared/layout-settings/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { Copyright, LanguageSwitch, useDocumentTitle } from '../../shared/ui/index.ts';
import { IconByName } from '../../shared/ui/icon-by-name.tsx';
import { lazyDialog } from '../../shared/ui/lazy-dialog.tsx';
import { breadcrumbTrail, sideMenu, titlesByPath, type SideMenuItem } from '../menu-model.tsx';
import { latestLocation, onNavigation, type NavigatedLocation } from '../navigation.ts';
import { HOME_PATH } from '../route-guard.ts';
import { staticTitleKey } from '../static-routes.ts';
import { tabCatalogue, tabForLocation } from '../tabs/navigation-tabs.ts';
import { PageHost } from '../tabs/page-host.tsx';
import { PageTabs } from '../tabs/page-tabs.tsx';
import { useTabs } from '../tabs/tab-store.ts';
import { HeaderExtras } from './header-extras.tsx';
import { headerTokens, siderTokens } from './layout-theme.ts';
import { MenuSearch } from './menu-search.tsx';
import { UserMenu } from './user-menu.tsx';
import styles from './basic-layout.module.css';

// the header's dialogs and the settings drawer load when first opened (or as the menu that opens them shows)
const SettingsDrawer = lazyDialog(() => import('./settings-drawer.tsx').then((m) => m.SettingsDrawer));
const ChangePasswordDialog = lazyDialog(() => import('../../features/user/components/change-password-dialog.tsx').then((m) => m.ChangePasswordDialog));
const TwoFactorDialog = lazyDialog(() => import('../../features/user/components/two-factor-dialog.tsx').then((m) => m.TwoFactorDialog));
const DepartSelectDialog = lazyDialog(() => import('../../features/user/components/depart-select-dialog.tsx').then((m) => m.DepartSelectDialog));

function prefetchUserMenuDialogs() {
  SettingsDrawer.prefetch();
  ChangePasswordDialog.prefetch();
  TwoFactorDialog.prefetch();
  DepartSelectDialog.prefetch();
}

function withIcons(items: SideMenuItem[]): (SideMenuItem & { icon?: ReactNode })[] {
  return items.map((item) => ({
    ...item,
    icon: item.iconName ? <IconByName name={item.iconName} /> : undefined,
    children: item.children ? withIcons(item.children) : undefined,
  }));
}

// A name too long for the 200 px sidebar ends in an ellipsis (the link is a block the text can shrink in) and is read
// whole in the link's title.
function renderMenuLink(item: { path?: string; external?: boolean; name?: string }, dom: ReactNode, onNavigate: () => void) {
  if (!item.path) return dom;
  if (item.external) {
    return (
      <a href={item.path} target="_blank" rel="noopener noreferrer" className={styles.menuLink} title={item.name}>
        {dom}
      </a>
    );
  }
  return (
    <Link to={item.path} onClick={onNavigate} className={styles.menuLink} title={item.name}>
      {dom}
    </Link>
  );
}

/** The phone's menu drawer: room for every seeded menu name in full, leaving a strip of the page beside it at 375 px. */
const PHONE_DRAWER_WIDTH = 296;

/** Follows the window: device class and sidebar by the SPEC breakpoints. */
function useDeviceClass() {
  const resize = useLayoutSettings((s) => s.resize);
  useEffect(() => {
    const onResize = () => resize(window.innerWidth);
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [resize]);
}

/** True once the page has scrolled far enough for a hide-on-scroll header to go. */
function useHeaderHidden(settings: { fixedHeader: boolean; autoHideHeader: boolean }) {
  const [scrollY, setScrollY] = useState(0);
  const active = settings.fixedHeader && settings.autoHideHeader;
  useEffect(() => {
    if (!active) return;
    const onScroll = () => setScrollY(window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [active]);
  return headerHidden(settings, active ? scrollY : 0);
}

function Breadcrumbs({ menu, pathname, titleKey }: { menu: readonly MenuItem[]; pathname: string; titleKey: string }) {
  const { t } = useTranslation();
  const trail = useMemo(() => breadcrumbTrail(menu, pathname), [menu, pathname]);
  const rest = pathname === HOME_PATH ? [] : trail.length ? trail : [{ path: pathname, titleKey }];
  return (
    <Breadcrumb
      className={styles.breadcrumb}
      aria-label={t('header.breadcrumb')}
      items={[
        { key: 'home', title: pathname === HOME_PATH ? t('app.home') : <Link to={HOME_PATH}>{t('app.home')}</Link> },
        ...rest.map((entry) => ({ key: entry.path, title: translateTitle(entry.titleKey) })),
      ]}
    />
  );
}

export interface BasicLayoutProps {
  menu: readonly MenuItem[];
  /** keep-alive pages (menu meta.keepAlive) by path, with their component name */
  keepAlive: ReadonlyMap<string, string>;
}

/** The signed-in frame around every menu page; the only place that knows ProLayout. */
export function BasicLayout({ menu, keepAlive }: BasicLayoutProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const settings = useLayoutSettings((s) => s.settings);
  const device = useLayoutSettings((s) => s.device);
  const collapsed = useLayoutSettings((s) => s.collapsed);
  const setCollapsed = useLayoutSettings((s) => s.setCollapsed);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const departChoicePending = useSession((s) => s.departChoicePending);
  const setDepartChoicePending = useSession((s) => s.setDepartChoicePending);
  const [departOpen, setDepartOpen] = useState(false);
  useDeviceClass();
  const mobile = device === 'mobile';
  const top = settings.layoutMode === 'topmenu';
  const dark = settings.navTheme === 'dark';
  const hidden = useHeaderHidden(settings);
  const surface = theme.useToken().token.colorBgContainer;
  const withTabs = settings.multipage && !mobile;

  const menuData = useMemo(() => withIcons(sideMenu(menu)), [menu]);
  const language = storedLanguage();
  const closeDepartDialog = useCallback(() => {
    setDepartOpen(false);
    setDepartChoicePending(false);
  }, [setDepartChoicePending]);
  const titles = useMemo(() => titlesByPath(menu), [menu]);
  const { pathname } = location;
  const activeKey = `${pathname}${location.search}`;
  const titleKey = titles.get(pathname) ?? staticTitleKey(pathname) ?? 'exception.pageNotFound';
  const pageTitle = translateTitle(titleKey);
  // ProLayout writes document.title too, so it is handed the very same 'page - product' text.
  const documentTitle = `${pageTitle} - ${t('app.productName')}`;
  useDocumentTitle(pageTitle);

  // Tabs follow the router's navigations, not only the rendered location: a navigation superseded before its page
  // rendered (quick clicks, a lazy page still loading) still gets its tab.
  const catalogue = useMemo(() => tabCatalogue(menu), [menu]);
  const search = location.search;
  useEffect(() => {
    if (!withTabs) return;
    const tab = tabForLocation({ pathname, search }, catalogue);
    if (tab) useTabs.getState().open(tab);
  }, [withTabs, catalogue, pathname, search]);
  useEffect(() => {
    if (!withTabs) return;
    const openTab = (at: NavigatedLocation) => {
      const tab = tabForLocation(at, catalogue);
      if (tab) useTabs.getState().open(tab);
    };
    const latest = latestLocation();
    if (latest) openTab(latest);
    return onNavigation(openTab);
  }, [withTabs, catalogue]);

  const headerOnDark = top && dark;
  const fixedWidth = top && settings.contentWidth === 'Fixed';
  const actions = (
    <div className={`${styles.actions} ${headerOnDark ? styles.onDark : ''}`}>
      <MenuSearch menu={menu} mobile={mobile} />
      <HeaderExtras />
      {mobile ? null : (
        <Tooltip title={t('header.systemSettings')}>
          <Button
            type="text"
            className={styles.headerButton}
            icon={<SettingOutlined />}
            aria-label={t('header.systemSettings')}
            onPointerEnter={SettingsDrawer.prefetch}
            onFocus={SettingsDrawer.prefetch}
            onClick={() => setSettingsOpen(true)}
          />
        </Tooltip>
      )}
      <LanguageSwitch className={styles.headerButton} />
      <UserMenu
        compact={mobile}
        onMenuShown={prefetchUserMenuDialogs}
        onSettings={() => setSettingsOpen(true)}
        onChangePassword={() => setPasswordOpen(true)}
        onSwitchDepart={() => setDepartOpen(true)}
        onTwoFactor={() => setTwoFactorOpen(true)}
      />
    </div>
  );
  const sidebarToggle = (
    <Button
      type="text"
      className={styles.headerButton}
      icon={mobile ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
      aria-label={mobile ? t('header.menu') : t('header.toggleSidebar')}
      aria-expanded={!collapsed}
      onClick={() => setCollapsed(!collapsed)}
    />
  );

  const layoutClass = [
    styles.layout,
    hidden ? styles.headerHidden : '',
    headerOnDark ? styles.darkHeader : '',
    settings.fixedHeader ? styles.fixedHeader : '',
    mobile && !settings.fixedHeader ? styles.phoneHeader : '',
  ].join(' ');

  return (
    <>
      <ProLayout
        className={layoutClass}
        title={t('app.productName')}
        logo={<img src="/logo.svg" alt="" width={32} height={32} />}
        layout={top ? 'top' : 'side'}
        contentWidth={settings.contentWidth}
        collapsed={collapsed}
        onCollapse={setCollapsed}
        collapsedButtonRender={false}
        locale={language === 'ja-JP' ? 'en-US' : language}
        menu={{ locale: false, collapsedWidth: SIDEBAR_COLLAPSED_WIDTH }}
        siderWidth={mobile ? PHONE_DRAWER_WIDTH : SIDEBAR_WIDTH}
        fixSiderbar={settings.fixSiderbar}
        fixedHeader={settings.fixedHeader}
        breakpoint={false}
        location={{ pathname }}
        route={{ path: '/', children: menuData }}
        menuDataRender={() => menuData}
        menuItemRender={(item, dom) =>
          // On a phone the drawer closes once a page is chosen.
          renderMenuLink({ path: item.path, name: typeof item.name === 'string' ? item.name : undefined, external: Boolean((item as { external?: boolean }).external) }, dom, () => mobile && setCollapsed(true))
        }
        subMenuItemRender={(_item, dom) => dom}
        onMenuHeaderClick={() => undefined}
        menuHeaderRender={(logo) => (
          <Link to={HOME_PATH} className={styles.brand} aria-label={t('app.home')}>
            {logo}
            <span className={styles.product}>{t('app.productName')}</span>
          </Link>
        )}
        pageTitleRender={() => documentTitle}
        contentStyle={{ padding: 0 }}
        token={{
          sider: siderTokens(dark, settings.primaryColor, surface),
          header: headerTokens(headerOnDark, settings.primaryColor, surface),
          pageContainer: { paddingInlinePageContainerContent: 24, paddingBlockPageContainerContent: 24 },
        }}
        headerContentRender={(_props, defaultDom) =>
          mobile ? (
            <div className={`${styles.mobileHeader} ${headerOnDark ? styles.onDark : ''}`}>
              {sidebarToggle}
              {actions}
            </div>
          ) : (
            <div className={styles.topHeader}>
              <div className={styles.topMenu}>{defaultDom}</div>
              {actions}
            </div>
          )
        }
        footerRender={() => (
          <footer className={styles.footer}>
            <Copyright />
          </footer>
        )}
      >
        {/* ProLayout draws no header beside a side menu on desktop, so the console brings its own there. */}
        {mobile || top ? null : (
          <header className={styles.desktopHeader}>
            {sidebarToggle}
            {actions}
          </header>
        )}
        {withTabs ? <PageTabs activeKey={activeKey} className={fixedWidth ? styles.tabsFixedWidth : top ? styles.tabsTopMenu : undefined} /> : null}
        {/* ProLayout's content is the page's <main> landmark already. */}
        <div className={`${styles.content} ${fixedWidth ? styles.fixedWidth : ''}`}>
          <Breadcrumbs menu={menu} pathname={pathname} titleKey={titleKey} />
          <PageHost activeKey={activeKey} activePathname={pathname} keepAlive={withTabs ? keepAlive : new Map()} />
        </div>
      </ProLayout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <TwoFactorDialog open={twoFactorOpen} onClose={() => setTwoFactorOpen(false)} />
      <DepartSelectDialog open={departOpen || departChoicePending} onClose={closeDepartDialog} />
      <EmergencyAlarm />
      <KeyOverdueNotices />
      <PatrolMissedNotices />
    </>
  );
}
