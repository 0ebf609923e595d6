import { Grid, Table } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudRow } from './entity-fields.ts';
import type { SortOrder } from './query-params.ts';

export interface CrudColumn {
  key: string;
  title: ReactNode;
  render: (row: CrudRow) => ReactNode;
  sortable?: boolean;
  /** compare for client-side sorting (tree lists); server lists leave sorting to the server */
  compare?: (a: CrudRow, b: CrudRow) => number;
  fixedRight?: boolean;
  /** the least width: the column may grow with the table but never shrinks below it (a time keeps its one line) */
  width?: number;
  /** long text: one line cut with an ellipsis at `CLIPPED_WIDTH`, the whole text in the cell's title */
  ellipsis?: boolean;
  /**
   * shown first on a phone, by this rank, on one line cut at `PHONE_CLIPPED_WIDTH`; the first stays at the left while
   * the other columns scroll under it
   */
  phoneRank?: number;
  /** a value picked from a list (コントローラー, オンライン): it breaks between words only, never inside one */
  term?: boolean;
}

/** The widest a clipped (ellipsis) column grows before it cuts its text. */
const CLIPPED_WIDTH = 240;
/** The widest a phone's first columns grow before they cut their text: two of them and the checkbox fit 375 px. */
const PHONE_CLIPPED_WIDTH = 140;
const clipped = { display: 'block', maxWidth: CLIPPED_WIDTH, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

function clip(content: ReactNode, maxWidth = CLIPPED_WIDTH): ReactNode {
  return (
    <span style={{ ...clipped, maxWidth }} title={typeof content === 'string' || typeof content === 'number' ? String(content) : undefined}>
      {content}
    </span>
  );
}

export interface CrudTableProps {
  columns: CrudColumn[];
  rows: CrudRow[];
  loading?: boolean;
  /** `total` given: the server pages; left out: the table pages the rows it holds */
  pagination: { current: number; pageSize: number; total?: number } | false;
  sort: { field: string; order: SortOrder } | null;
  onChange: (change: { current: number; pageSize: number; sort: { field: string; order: SortOrder } | null }) => void;
  selection?: { keys: string[]; onChange: (keys: string[], rows: CrudRow[]) => void };
  ariaLabel?: string;
}

const toAntOrder = (order: SortOrder | undefined) => (order === 'asc' ? 'ascend' : order === 'desc' ? 'descend' : null);

/** The one table of the CRUD screens: antd Table behind our own column and paging shape, so it can be replaced. */
export function CrudTable({ columns, rows, loading, pagination, sort, onChange, selection, ariaLabel }: CrudTableProps) {
  const { t } = useTranslation();
  // on a phone a right-fixed actions column would cover the whole narrow table: it scrolls with the rest there
  const wide = Grid.useBreakpoint().md !== false;
  const phoneFirst = wide ? [] : columns.filter((c) => c.phoneRank !== undefined).sort((a, b) => a.phoneRank! - b.phoneRank!);
  const ordered = phoneFirst.length > 0 ? [...phoneFirst, ...columns.filter((c) => !phoneFirst.includes(c))] : columns;
  const antColumns: TableColumnsType<CrudRow> = ordered.map((column) => ({
    key: column.key,
    dataIndex: column.key,
    title: column.title,
    render: (_value: unknown, row: CrudRow) =>
      phoneFirst.includes(column) ? clip(column.render(row), PHONE_CLIPPED_WIDTH) : column.ellipsis ? clip(column.render(row)) : column.render(row),
    onCell: column.term ? () => ({ className: 'crud-term' }) : undefined,
    sorter: column.sortable ? (column.compare ?? true) : false,
    sortOrder: column.sortable ? (sort?.field === column.key ? toAntOrder(sort.order) : null) : undefined,
    sortDirections: ['ascend', 'descend'],
    showSorterTooltip: false,
    fixed: column.fixedRight && wide ? 'right' : column === phoneFirst[0] ? 'left' : undefined,
    width: column.width,
  }));

  const handleChange: TableProps<CrudRow>['onChange'] = (page, _filters, sorter) => {
    const single = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<CrudRow> | undefined;
    const field = single?.order ? String(single.columnKey ?? single.field ?? '') : '';
    onChange({
      current: page.current ?? 1,
      pageSize: page.pageSize ?? 10,
      sort: field ? { field, order: single?.order === 'ascend' ? 'asc' : 'desc' } : null,
    });
  };

  return (
    <Table<CrudRow>
      aria-label={ariaLabel}
      rowKey="id"
      size="middle"
      columns={antColumns}
      dataSource={rows}
      loading={loading}
      onChange={handleChange}
      // the columns take their content's width while the card has room; past that the text wraps (a time never: its
      // width is its least), and only when even that does not fit does the table scroll sideways. A fixed layout
      // would size the columns by their headers and let the right-fixed actions cover the cells before them.
      tableLayout="auto"
      scroll={{ x: true }}
      rowSelection={
        selection
          ? { selectedRowKeys: selection.keys, onChange: (keys, selected) => selection.onChange(keys.map(String), selected), checkStrictly: true, preserveSelectedRowKeys: false }
          : undefined
      }
      pagination={
        pagination === false
          ? false
          : {
              current: pagination.current,
              pageSize: pagination.pageSize,
              total: pagination.total ?? rows.length,
              // a phone's pager is the compact one, so it keeps to one line
              simple: !wide,
              showSizeChanger: wide,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: wide ? (total) => t('crud.total', { count: total, total }) : undefined,
              size: 'small',
            }
      }
    />
  );
}
