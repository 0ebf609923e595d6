import { REPORT_CHART_VALUES, REPORT_COLUMNS, type ReportResult } from '@isps/contract';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useChartStyle } from '../../shared/ui/chart-style.tsx';
import { cellLabel } from './cells.ts';

/** The report's figures as bars, one group per row (the first 30), named by the row's first column. */
export default function ReportChart({ result }: { result: ReportResult }) {
  const { t } = useTranslation();
  const { token, text, tooltip, grid, legend, cursor } = useChartStyle();
  const nameColumn = REPORT_COLUMNS[result.kind][0]!;
  const values = REPORT_CHART_VALUES[result.kind];
  const colors = [token.colorPrimary, token.colorError, token.colorWarning];
  const data = result.rows.slice(0, 30).map((row) => ({
    name: String(cellLabel(t, nameColumn, row[nameColumn] ?? null)),
    ...Object.fromEntries(values.map((v) => [v, Number(row[v] ?? 0)])),
  }));
  return (
    <div role="img" aria-label={t('reportScreen.chart', { name: t(`report.name.${result.kind}`) })} style={{ width: '100%', height: 280 }}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 280 }}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="name" tick={text} axisLine={{ stroke: grid }} tickLine={{ stroke: grid }} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} tick={text} axisLine={{ stroke: grid }} tickLine={{ stroke: grid }} width={48} />
          <Tooltip cursor={cursor} {...tooltip} />
          <Legend {...legend} />
          {values.map((v, i) => (
            <Bar key={v} dataKey={v} name={t(`report.column.${v}`)} fill={colors[i % colors.length]} maxBarSize={40} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
