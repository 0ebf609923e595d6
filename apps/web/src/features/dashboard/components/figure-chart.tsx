import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useChartStyle } from '../../../shared/ui/chart-style.tsx';
import styles from './figure-chart.module.css';

/** One series of a chart: a label, its colour and a value per category. */
export interface FigureSeries {
  key: string;
  label: string;
  color: string;
  values: number[];
  /** drawn as a line over the bars */
  line?: boolean;
}

/** One slice of a pie. */
export interface FigureSlice {
  key: string;
  label: string;
  color: string;
  value: number;
}

/** Numbers in the chosen language. */
function useNumber(): (value: number) => string {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language);
  return (value) => format.format(value);
}

/** About how wide a label is drawn: a CJK character takes a full em, others a little over half. */
function labelWidth(label: string, fontSize: number): number {
  return [...label].reduce((width, ch) => width + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? fontSize : fontSize * 0.62), 0);
}

/** The figures as a table out of sight: what a screen reader (and a test) reads of the chart. */
function FigureTable({ caption, head, rows }: { caption: string; head: string[]; rows: string[][] }) {
  return (
    <table className={styles.hidden}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((cell, i) => (
            <th key={i} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, r) => (
          <tr key={r}>
            {row.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={i}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NoData({ height }: { height: number }) {
  const { t } = useTranslation();
  return (
    <div className={styles.empty} style={{ height }}>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noData')} />
    </div>
  );
}

interface BarFigureProps {
  /** what the chart shows: its table's caption */
  title: string;
  /** the heading of the categories' column of the table */
  categoryLabel: string;
  categories: string[];
  series: FigureSeries[];
  stacked?: boolean;
  /** bars along the vertical axis, categories named at the left (long names on a narrow screen) */
  horizontal?: boolean;
  height?: number;
  testId?: string;
}

/** Bars (and lines) of series over categories, with the figures as a table beside; "nothing to show" when all are zero. */
export function BarFigure({ title, categoryLabel, categories, series, stacked = false, horizontal = false, height = 260, testId }: BarFigureProps) {
  const number = useNumber();
  const { text, tooltip, grid, legend, cursor } = useChartStyle();
  const empty = series.every((s) => s.values.every((v) => v === 0));
  const data = categories.map((category, i) => Object.fromEntries([['category', category], ...series.map((s) => [s.key, s.values[i] ?? 0])]));
  const valueAxis = { tick: text, tickFormatter: number, allowDecimals: false, axisLine: false, tickLine: false, width: 40 } as const;
  const categoryAxis = { dataKey: 'category', tick: text, tickLine: false, axisLine: { stroke: grid } } as const;
  return (
    <figure className={styles.figure} data-testid={testId} aria-label={title}>
      {empty ? (
        <NoData height={height} />
      ) : (
        <div aria-hidden style={{ height }}>
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={data} layout={horizontal ? 'vertical' : 'horizontal'} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke={grid} strokeDasharray="3 3" horizontal={!horizontal} vertical={horizontal} />
              {horizontal ? (
                <>
                  <XAxis type="number" {...valueAxis} />
                  <YAxis type="category" {...categoryAxis} width={Math.min(140, Math.ceil(Math.max(40, ...categories.map((c) => labelWidth(c, text.fontSize)))) + 12)} interval={0} />
                </>
              ) : (
                <>
                  <XAxis {...categoryAxis} interval="preserveStartEnd" minTickGap={8} />
                  <YAxis {...valueAxis} />
                </>
              )}
              <Tooltip formatter={(value) => number(Number(value))} cursor={cursor} {...tooltip} />
              <Legend {...legend} />
              {series.map((s) =>
                s.line ? (
                  <Line key={s.key} dataKey={s.key} name={s.label} stroke={s.color} strokeWidth={2} dot={false} type="monotone" isAnimationActive={false} />
                ) : (
                  <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} stackId={stacked ? 'all' : undefined} maxBarSize={28} radius={stacked ? 0 : [3, 3, 0, 0]} isAnimationActive={false} />
                ),
              )}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
      <FigureTable caption={title} head={[categoryLabel, ...series.map((s) => s.label)]} rows={categories.map((category, i) => [category, ...series.map((s) => number(s.values[i] ?? 0))])} />
    </figure>
  );
}

interface PieFigureProps {
  title: string;
  categoryLabel: string;
  valueLabel: string;
  slices: FigureSlice[];
  height?: number;
  testId?: string;
}

/** A ring of slices with their total in the middle and the figures as a table beside; "nothing to show" when all are zero. */
export function PieFigure({ title, categoryLabel, valueLabel, slices, height = 220, testId }: PieFigureProps) {
  const { t } = useTranslation();
  const number = useNumber();
  const { token, tooltip, legend } = useChartStyle();
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  return (
    <figure className={styles.figure} data-testid={testId} aria-label={title}>
      {total === 0 ? (
        <NoData height={height} />
      ) : (
        <div aria-hidden style={{ height }}>
          <ResponsiveContainer width="100%" height="100%">
            <PieChart>
              <Pie
                data={slices.map((s) => ({ name: s.label, value: s.value, fill: s.color }))}
                dataKey="value"
                nameKey="name"
                innerRadius="52%"
                outerRadius="78%"
                cy="45%"
                paddingAngle={slices.filter((s) => s.value > 0).length > 1 ? 2 : 0}
                stroke={token.colorBgContainer}
                isAnimationActive={false}
              />
              <text x="50%" y="45%" textAnchor="middle" dominantBaseline="central" fill={token.colorText} fontSize={token.fontSizeLG} fontWeight={600}>
                {number(total)}
              </text>
              <Tooltip formatter={(value) => number(Number(value))} {...tooltip} />
              <Legend
                {...legend}
                iconType="circle"
                formatter={(name: string, entry) => <span style={{ color: token.colorText }}>{`${name} ${number(Number((entry.payload as { value?: number } | undefined)?.value ?? 0))}`}</span>}
              />
            </PieChart>
          </ResponsiveContainer>
        </div>
      )}
      <FigureTable caption={title} head={[categoryLabel, valueLabel]} rows={[...slices.map((s) => [s.label, number(s.value)]), [t('dashboard.totalLabel'), number(total)]]} />
    </figure>
  );
}
