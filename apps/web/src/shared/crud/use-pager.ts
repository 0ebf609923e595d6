import { Grid, type TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';

/** The pager of a list the server pages: the page, a size changer and the total in the reader's language (a phone: the page only). */
export function usePager(page: { pageNo: number; pageSize: number }, total: number | undefined, onChange: (pageNo: number, pageSize: number) => void): TablePaginationConfig {
  const { t } = useTranslation();
  // a phone gets the compact pager, which keeps to one line
  const phone = Grid.useBreakpoint().md === false;
  return {
    current: page.pageNo,
    pageSize: page.pageSize,
    total: total ?? 0,
    simple: phone,
    showSizeChanger: !phone,
    showTotal: phone ? undefined : (count) => t('crud.total', { count, total: count }),
    onChange,
  };
}
