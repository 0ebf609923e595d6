import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Copyright } from '../../shared/ui/copyright.tsx';
import { LightLanguageSwitch } from '../../shared/ui/light-language-switch.tsx';
import styles from './user-layout.module.css';

/** Login and other account pages: logo, product name, the page and a copyright footer (drawn without antd). */
export function UserLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={styles.page}>
      <header className={styles.top}>
        <LightLanguageSwitch />
      </header>
      <main className={styles.main}>
        <div className={styles.brand}>
          <img src="/logo.svg" alt="" className={styles.logo} width={44} height={44} />
          <h1 className={styles.title}>{t('app.productName')}</h1>
        </div>
        <p className={styles.tagline}>{t('app.tagline')}</p>
        {children ?? <Outlet />}
      </main>
      <footer className={styles.footer}>
        <Copyright />
      </footer>
    </div>
  );
}
