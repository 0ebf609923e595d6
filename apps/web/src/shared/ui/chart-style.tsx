import { theme } from 'antd';
import type { CSSProperties } from 'react';

/**
 * A chart's colours from the active antd theme (light or dark): tick texts, grid and axis lines, the tooltip and the
 * legend. Every chart of the console takes them from here, so a switch of the theme redraws them at once.
 */
export function useChartStyle() {
  const { token } = theme.useToken();
  const text = { fill: token.colorTextSecondary, fontSize: token.fontSizeSM };
  const tooltip: { contentStyle: CSSProperties; labelStyle: CSSProperties; itemStyle: CSSProperties } = {
    contentStyle: { background: token.colorBgElevated, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, boxShadow: token.boxShadowSecondary },
    labelStyle: { color: token.colorText },
    itemStyle: { color: token.colorText },
  };
  // legends in the page's text colour (a pale series would name itself unreadably), in the order the series are given
  const legend = {
    wrapperStyle: { color: token.colorText, fontSize: token.fontSizeSM },
    iconSize: 10,
    itemSorter: null,
    formatter: (value: string) => <span style={{ color: token.colorText }}>{value}</span>,
  } as const;
  /** the cursor band of a bar chart's tooltip */
  const cursor = { fill: token.colorFillSecondary };
  return { token, text, tooltip, grid: token.colorBorderSecondary, legend, cursor };
}
