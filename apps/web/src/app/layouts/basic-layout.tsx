import { DownOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-components';
import type { MenuItem } from '@isps/contract';
import { App, Avatar, Dropdown } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ChangePasswordDialog } from '../../features/user/index.ts';
import { storedLanguage } from '../../shared/i18n/index.ts';
import { logout, useSession } from '../../shared/session/index.ts';
import { Copyright, LanguageSwitch } from '../../shared/ui/index.ts';
import { IconByName } from '../../shared/ui/icon-by-name.tsx';
import { sideMenu, type SideMenuItem } from '../menu-model.tsx';
import styles from './basic-layout.module.css';

/** SPEC section 9 defaults: dark side navigation, 200 px wide, 80 px collapsed. */
const layoutSettings = { siderWidth: 200, collapsedWidth: 80, fixSiderbar: true, fixedHeader: true } as const;

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

function UserMenu({ onChangePassword }: { onChangePassword: () => void }) {
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

function renderMenuLink(item: { path?: string; external?: boolean }, dom: ReactNode) {
  if (!item.path) return dom;
  if (item.external) {
    return (
      <a href={item.path} target="_blank" rel="noopener noreferrer">
        {dom}
      </a>
    );
  }
  return <Link to={item.path}>{dom}</Link>;
}

/** The signed-in frame around every menu page; the only place that knows ProLayout. */
export function BasicLayout({ menu }: { menu: readonly MenuItem[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const menuData = useMemo(() => withIcons(sideMenu(menu)), [menu]);
  const language = storedLanguage();

  return (
    <>
      <ProLayout
        title={t('app.productName')}
        logo={<img src="/logo.svg" alt="" width={32} height={32} />}
        layout="side"
        locale={language === 'ja-JP' ? 'en-US' : language}
        menu={{ locale: false, collapsedWidth: layoutSettings.collapsedWidth }}
        siderWidth={layoutSettings.siderWidth}
        fixSiderbar={layoutSettings.fixSiderbar}
        fixedHeader={layoutSettings.fixedHeader}
        breakpoint="lg"
        location={{ pathname: location.pathname }}
        route={{ path: '/', children: menuData }}
        menuDataRender={() => menuData}
        menuItemRender={(item, dom) => renderMenuLink({ path: item.path, external: Boolean((item as { external?: boolean }).external) }, dom)}
        subMenuItemRender={(_item, dom) => dom}
        onMenuHeaderClick={() => undefined}
        menuHeaderRender={(logo, title) => (
          <Link to="/dashboard/analysis" className={styles.brand} aria-label={t('app.home')}>
            {logo}
            {title}
          </Link>
        )}
        pageTitleRender={false}
        token={{ sider: darkSider, header: { colorBgHeader: '#fff' }, pageContainer: { paddingInlinePageContainerContent: 24, paddingBlockPageContainerContent: 24 } }}
        actionsRender={() => [<LanguageSwitch key="language" />, <UserMenu key="user" onChangePassword={() => setPasswordOpen(true)} />]}
        footerRender={() => (
          <footer className={styles.footer}>
            <Copyright />
          </footer>
        )}
      >
        <main className={styles.content}>
          <Outlet />
        </main>
      </ProLayout>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </>
  );
}
