import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Copyright, LanguageSwitch } from '../../../shared/ui/index.ts';
import styles from './visitor-layout.module.css';

/** SPEC section 2: the visitor layout shows a product-name heading above the page. */
export function VisitorLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={styles.page}>
      <header className={styles.top}>
        <h1 className={styles.heading}>{t('app.productName')}</h1>
        <LanguageSwitch />
      </header>
      <main className={styles.main}>{children ?? <Outlet />}</main>
      <footer className={styles.footer}>
        <Copyright />
      </footer>
    </div>
  );
}
