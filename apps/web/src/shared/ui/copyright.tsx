import { useTranslation } from 'react-i18next';

export function Copyright({ className }: { className?: string }) {
  const { t } = useTranslation();
  return <div className={className}>{t('app.copyright', { year: new Date().getFullYear() })}</div>;
}
