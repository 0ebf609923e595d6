import { Checkbox, Empty, Grid, Pagination, Spin, Table } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudRow } from './entity-fields.ts';
import type { SortOrder } from './query-params.ts';
import styles from './crud-table.module.css';

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
  /** shown on a phone's card, by this rank: the first titles the card, the others are its label: value lines */
  phoneRank?: number;
  /** a value picked from a list (コントローラー, オンライン): it breaks between words only, never inside one */
  term?: boolean;
}

/** The widest a clipped (ellipsis) column grows before it cuts its text. */
const CLIPPED_WIDTH = 240;
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

/** How many label: value lines a phone's card shows under its title (the details show the rest). */
const CARD_LINES = 6;

/** A tree's rows with their depth, parents before their children, as a phone lists them. */
function flatten(rows: CrudRow[], depth = 0): Array<{ row: CrudRow; depth: number }> {
  return rows.flatMap((row) => [{ row, depth }, ...(Array.isArray(row.children) ? flatten(row.children as CrudRow[], depth + 1) : [])]);
}

/**
 * A phone's list: each row a card, titled by its first ranked column (`phoneRank`, else its first), the next few as
 * label: value lines and its actions (the right-fixed column) at its foot, all reachable without scrolling sideways.
 */
function CrudCards({ columns, rows, loading, pagination, onChange, selection, ariaLabel, sort }: CrudTableProps) {
  const { t } = useTranslation();
  const actions = columns.filter((c) => c.fixedRight);
  const ranked = columns.filter((c) => c.phoneRank !== undefined && !c.fixedRight).sort((a, b) => a.phoneRank! - b.phoneRank!);
  // the ranked columns first, then the others in their order, up to a card's lines
  const [head, ...lines] = [...ranked, ...columns.filter((c) => !c.fixedRight && !ranked.includes(c))].slice(0, CARD_LINES + 1);
  const total = pagination === false ? rows.length : (pagination.total ?? rows.length);
  // a list the table pages itself (a tree) is paged here the same way
  const shown = pagination && pagination.total === undefined ? rows.slice((pagination.current - 1) * pagination.pageSize, pagination.current * pagination.pageSize) : rows;
  const entries = flatten(shown);
  const checked = new Set(selection?.keys ?? []);
  const toggle = (row: CrudRow, on: boolean) => {
    if (!selection) return;
    const keys = on ? [...checked, row.id] : [...checked].filter((k) => k !== row.id);
    const all = entries.map((e) => e.row);
    selection.onChange(keys, all.filter((r) => keys.includes(r.id)));
  };
  return (
    <Spin spinning={Boolean(loading)}>
      <ul className={styles.cards} aria-label={ariaLabel} data-testid="crud-cards">
        {entries.map(({ row, depth }) => (
          <li key={row.id} className={styles.card} style={depth > 0 ? { marginInlineStart: depth * 16 } : undefined} aria-label={head ? undefined : row.id}>
            <div className={styles.cardHead}>
              {selection ? <Checkbox checked={checked.has(row.id)} onChange={(e) => toggle(row, e.target.checked)} aria-label={t('crud.selectRow')} /> : null}
              <span className={styles.cardTitle} data-card-title="">
                {head ? head.render(row) : null}
              </span>
            </div>
            {lines.length > 0 ? (
              <dl className={styles.lines}>
                {lines.map((column) => {
                  const value = column.render(row);
                  // a card names what a row has: an empty value takes no line
                  if (value === '' || value === null || value === undefined) return null;
                  return (
                    <div key={column.key} className={styles.line}>
                      <dt>{column.title}</dt>
                      <dd>{value}</dd>
                    </div>
                  );
                })}
              </dl>
            ) : null}
            {actions.length > 0 ? <div className={styles.actions}>{actions.map((column) => <div key={column.key}>{column.render(row)}</div>)}</div> : null}
          </li>
        ))}
      </ul>
      {entries.length === 0 && !loading ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
      {pagination !== false && total > pagination.pageSize ? (
        <Pagination
          className={styles.pager}
          simple
          size="small"
          current={pagination.current}
          pageSize={pagination.pageSize}
          total={total}
          onChange={(current, pageSize) => onChange({ current, pageSize, sort })}
        />
      ) : null}
    </Spin>
  );
}

/**
 * The one table of the CRUD screens: antd Table behind our own column and paging shape, so it can be replaced. On a
 * phone it is a list of cards instead: squeezed columns there would hide most of a row and its actions.
 */
export function CrudTable(props: CrudTableProps) {
  const wide = Grid.useBreakpoint().md !== false;
  return wide ? <WideTable {...props} /> : <CrudCards {...props} />;
}

function WideTable({ columns, rows, loading, pagination, sort, onChange, selection, ariaLabel }: CrudTableProps) {
  const { t } = useTranslation();
  const antColumns: TableColumnsType<CrudRow> = columns.map((column) => ({
    key: column.key,
    dataIndex: column.key,
    title: column.title,
    render: (_value: unknown, row: CrudRow) => (column.ellipsis ? clip(column.render(row)) : column.render(row)),
    onCell: column.term ? () => ({ className: 'crud-term' }) : undefined,
    sorter: column.sortable ? (column.compare ?? true) : false,
    sortOrder: column.sortable ? (sort?.field === column.key ? toAntOrder(sort.order) : null) : undefined,
    sortDirections: ['ascend', 'descend'],
    showSorterTooltip: false,
    fixed: column.fixedRight ? 'right' : undefined,
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
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: (total) => t('crud.total', { count: total, total }),
              size: 'small',
            }
      }
    />
  );
}
