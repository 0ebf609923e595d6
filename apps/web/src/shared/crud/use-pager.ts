import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';

/** The pager of a list the server pages: the page, a size changer and the total in the reader's language. */
export function usePager(page: { pageNo: number; pageSize: number }, total: number | undefined, onChange: (pageNo: number, pageSize: number) => void): TablePaginationConfig {
  const { t } = useTranslation();
  return {
    current: page.pageNo,
    pageSize: page.pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    showTotal: (count) => t('crud.total', { count, total: count }),
    onChange,
  };
}
