const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A byte count in the reader's language (1.5 GB, 1.5 GB, 1.5 GB: Intl names the unit). */
export function formatBytes(bytes: number, lang: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(lang, { style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}

export function formatMs(ms: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'millisecond', unitDisplay: 'short', maximumFractionDigits: ms < 10 ? 2 : 0 }).format(ms);
}

export function formatPercent(ratio: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

export function uptimeParts(seconds: number): { days: number; hours: number; minutes: number } {
  return { days: Math.floor(seconds / 86_400), hours: Math.floor((seconds % 86_400) / 3600), minutes: Math.floor((seconds % 3600) / 60) };
}

export function clockTime(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(new Date(ms));
}
