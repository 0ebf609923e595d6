import { ApartmentOutlined, DownOutlined, KeyOutlined, LogoutOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-components';
import type { MenuItem } from '@isps/contract';
import { App, Avatar, Button, Dropdown, Grid } from 'antd';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ChangePasswordDialog, DepartSelectDialog } from '../../features/user/index.ts';
import { storedLanguage, translateTitle } from '../../shared/i18n/index.ts';
import { logout, useSession } from '../../shared/session/index.ts';
import { Copyright, LanguageSwitch, useDocumentTitle } from '../../shared/ui/index.ts';
import { IconByName } from '../../shared/ui/icon-by-name.tsx';
import { sideMenu, titlesByPath, type SideMenuItem } from '../menu-model.tsx';
import styles from './basic-layout.module.css';

/** SPEC section 9 defaults: dark side navigation, 200 px wide, 80 px collapsed; the header spans the page. */
const layoutSettings = { siderWidth: 200, collapsedWidth: 80, fixSiderbar: true, fixedHeader: true } as const;

const MOBILE_QUERY = '(max-width: 767.98px)';

const darkSider = {
  colorMenuBackground: '#001529',
  colorTextMenu: 'rgba(255,255,255,0.72)',
  colorTextMenuSecondary: 'rgba(255,255,255,0.65)',
  colorTextMenuTitle: '#fff',
  colorTextMenuItemHover: '#fff',
  colorTextMenuActive: '#fff',
  colorTextMenuSelected: '#fff',
  colorTextSubMenuSelected: '#fff',
  colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
  colorBgMenuItemSelected: '#1890ff',
  colorBgMenuItemActive: 'rgba(255,255,255,0.12)',
  colorMenuItemDivider: 'rgba(255,255,255,0.15)',
  colorBgCollapsedButton: '#fff',
  colorTextCollapsedButton: 'rgba(0,0,0,0.65)',
  colorTextCollapsedButtonHover: '#1890ff',
};

function UserMenu({ onChangePassword, onSwitchDepart }: { onChangePassword: () => void; onSwitchDepart: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  const name = user?.nickname || user?.realname || user?.username || '';

  function confirmLogout() {
    modal.confirm({
      title: t('common.notice'),
      content: t('header.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout();
        navigate('/', { replace: true });
      },
    });
  }

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'depart', icon: <ApartmentOutlined />, label: t('header.switchDepart'), onClick: onSwitchDepart },
          { key: 'password', icon: <KeyOutlined />, label: t('header.changePassword'), onClick: onChangePassword },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout'), onClick: confirmLogout },
        ],
      }}
    >
      <button type="button" className={styles.userButton} aria-label={t('header.userMenu')} aria-haspopup="menu">
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} alt="" />
        <span className={styles.welcome}>{t('header.welcome', { name })}</span>
        <DownOutlined className={styles.caret} aria-hidden />
      </button>
    </Dropdown>
  );
}

function withIcons(items: SideMenuItem[]): (SideMenuItem & { icon?: ReactNode })[] {
  return items.map((item) => ({
    ...item,
    icon: item.iconName ? <IconByName name={item.iconName} /> : undefined,
    children: item.children ? withIcons(item.children) : undefined,
  }));
}

function renderMenuLink(item: { path?: string; external?: boolean }, dom: ReactNode, onNavigate: () => void) {
  if (!item.path) return dom;
  if (item.external) {
    return (
      <a href={item.path} target="_blank" rel="noopener noreferrer">
        {dom}
      </a>
    );
  }
  return (
    <Link to={item.path} onClick={onNavigate}>
      {dom}
    </Link>
  );
}

/** The signed-in frame around every menu page; the only place that knows ProLayout. */
export function BasicLayout({ menu }: { menu: readonly MenuItem[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const departChoicePending = useSession((s) => s.departChoicePending);
  const setDepartChoicePending = useSession((s) => s.setDepartChoicePending);
  const [departOpen, setDepartOpen] = useState(false);
  // ProLayout treats widths below 768 px as mobile and shows the menu as a drawer there.
  const isMobile = Grid.useBreakpoint().md === false;
  // Read the width at once: breakpoints arrive a render late, which would flash the mobile drawer open.
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(MOBILE_QUERY).matches);
  const actions = (
    <div className={styles.actions}>
      <LanguageSwitch />
      <UserMenu onChangePassword={() => setPasswordOpen(true)} onSwitchDepart={() => setDepartOpen(true)} />
    </div>
  );
  const menuData = useMemo(() => withIcons(sideMenu(menu)), [menu]);
  const language = storedLanguage();
  const closeDepartDialog = useCallback(() => {
    setDepartOpen(false);
    setDepartChoicePending(false);
  }, [setDepartChoicePending]);
  const titles = useMemo(() => titlesByPath(menu), [menu]);
  const pageTitle = titles.has(location.pathname) ? translateTitle(titles.get(location.pathname)) : t('exception.pageNotFound');
  // ProLayout writes document.title too, so it is handed the very same 'page - product' text.
  const documentTitle = `${pageTitle} - ${t('app.productName')}`;
  useDocumentTitle(pageTitle);

  return (
    <>
      <ProLayout
        className={styles.layout}
        title={t('app.productName')}
        logo={<img src="/logo.svg" alt="" width={32} height={32} />}
        layout="side"
        collapsed={collapsed}
        onCollapse={setCollapsed}
        locale={language === 'ja-JP' ? 'en-US' : language}
        menu={{ locale: false, collapsedWidth: layoutSettings.collapsedWidth }}
        siderWidth={layoutSettings.siderWidth}
        fixSiderbar={layoutSettings.fixSiderbar}
        fixedHeader={layoutSettings.fixedHeader}
        breakpoint="lg"
        location={{ pathname: location.pathname }}
        route={{ path: '/', children: menuData }}
        menuDataRender={() => menuData}
        menuItemRender={(item, dom) =>
          // On a phone the drawer closes once a page is chosen.
          renderMenuLink({ path: item.path, external: Boolean((item as { external?: boolean }).external) }, dom, () => isMobile && setCollapsed(true))
        }
        subMenuItemRender={(_item, dom) => dom}
        onMenuHeaderClick={() => undefined}
        menuHeaderRender={(logo) => (
          <Link to="/dashboard/analysis" className={styles.brand} aria-label={t('app.home')}>
            {logo}
            <span className={styles.product}>{t('app.productName')}</span>
          </Link>
        )}
        pageTitleRender={() => documentTitle}
        contentStyle={{ padding: 0 }}
        token={{ sider: darkSider, header: { colorBgHeader: '#fff', heightLayoutHeader: 56 }, pageContainer: { paddingInlinePageContainerContent: 24, paddingBlockPageContainerContent: 24 } }}
        headerContentRender={() => (
          <div className={styles.mobileHeader}>
            <Button type="text" icon={<MenuOutlined />} aria-label={t('header.menu')} aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)} />
            {actions}
          </div>
        )}
        footerRender={() => (
          <footer className={styles.footer}>
            <Copyright />
          </footer>
        )}
      >
        {/* ProLayout draws no header beside a side menu on desktop, so the console brings its own there. */}
        {isMobile ? null : <header className={styles.desktopHeader}>{actions}</header>}
        <main className={styles.content}>
          <Outlet />
        </main>
      </ProLayout>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <DepartSelectDialog open={departOpen || departChoicePending} onClose={closeDepartDialog} />
    </>
  );
}
