import { ApartmentOutlined, DownOutlined, KeyOutlined, LogoutOutlined, SafetyOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Dropdown } from 'antd';
import { reshownSeededText, type Language } from '@isps/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { greetingKey } from '../../features/user/greeting.ts';
import { logout, useSession } from '../../shared/session/index.ts';
import styles from './basic-layout.module.css';

export interface UserMenuProps {
  /** the menu opens (its dialogs' code can start loading) */
  onMenuShown?: () => void;
  onSettings: () => void;
  onChangePassword: () => void;
  onSwitchDepart: () => void;
  onTwoFactor: () => void;
  /** a phone: the avatar alone, without the welcome text */
  compact: boolean;
}

/** The avatar with the welcome text of the time of day and the person's own actions. */
export function UserMenu({ onMenuShown, onSettings, onChangePassword, onSwitchDepart, onTwoFactor, compact }: UserMenuProps) {
  const { t, i18n } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  // the seeded administrator's name in the language of now, not of the sign-in
  const realname = user ? reshownSeededText(i18n.language as Language, 'user', 'realname', { ...user }) : '';
  const name = user?.nickname || (typeof realname === 'string' ? realname : '') || user?.username || '';
  const greeting = t(greetingKey(new Date().getHours()));

  function confirmLogout() {
    modal.confirm({
      title: t('common.notice'),
      content: t('header.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const failure = await logout();
        navigate('/', { replace: true });
        if (failure) void message.error(failure);
      },
    });
  }

  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={(open) => {
        if (open) onMenuShown?.();
      }}
      menu={{
        items: [
          { key: 'settings', icon: <SettingOutlined />, label: t('header.systemSettings'), onClick: onSettings },
          { key: 'password', icon: <KeyOutlined />, label: t('header.changePassword'), onClick: onChangePassword },
          { key: 'two-factor', icon: <SafetyOutlined />, label: t('header.twoFactor'), onClick: onTwoFactor },
          { key: 'depart', icon: <ApartmentOutlined />, label: t('header.switchDepart'), onClick: onSwitchDepart },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout'), onClick: confirmLogout },
        ],
      }}
    >
      <button type="button" className={styles.userButton} aria-label={t('header.userMenu')} aria-haspopup="menu">
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} alt="" />
        {compact ? null : <span className={styles.welcome}>{t('header.greeting', { greeting, name })}</span>}
        <DownOutlined className={styles.caret} aria-hidden />
      </button>
    </Dropdown>
  );
}
