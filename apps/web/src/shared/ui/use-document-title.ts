import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** SPEC section 2: 'page title - product name'. */
export function useDocumentTitle(pageTitle: string | null | undefined): void {
  const { t } = useTranslation();
  const product = t('app.productName');
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - ${product}` : product;
  }, [pageTitle, product]);
}
