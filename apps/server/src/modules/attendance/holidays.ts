import { FESTIVALS, type AttendanceSuggestion, type Festival } from '@isps/contract';
import chineseDays from 'chinese-days';

// a CommonJS module: its functions are properties of the default export
const { getDayDetail, getSolarDateFromLunar, getSolarTerms } = chineseDays;

/** The library's English festival names (its data's first name) by our festival field. */
const NAMES: Record<string, Festival> = {
  "New Year's Day": 'festNewYear',
  'Spring Festival': 'festSpring',
  'Tomb-sweeping Day': 'festChingMing',
  'Labour Day': 'festMayDay',
  'Dragon Boat Festival': 'festDragonBoat',
  'Mid-autumn Festival': 'festMidAutumn',
  'National Day': 'festNationalDay',
};

const emptyFestivals = (): Record<Festival, string[]> => Object.fromEntries(FESTIVALS.map((f) => [f, [] as string[]])) as unknown as Record<Festival, string[]>;

/**
 * China's festival days off and swapped working days of a year, from chinese-days (the State Council's yearly
 * schedule). A year not published yet gets each festival's own day (lunar ones from the lunar calendar, Ching Ming
 * from its solar term) and no swapped days: the administrator confirms or changes them.
 */
export function suggestDates(year: number): AttendanceSuggestion {
  const festivals = emptyFestivals();
  const swapped: string[] = [];
  for (let ms = Date.UTC(year, 0, 1); ms < Date.UTC(year + 1, 0, 1); ms += 86_400_000) {
    const date = new Date(ms).toISOString().slice(0, 10);
    const detail = getDayDetail(date);
    // a festival's days name it ("National Day,国庆节,3"); other days name their weekday
    const festival = NAMES[detail.name.split(',')[0] ?? ''];
    if (!festival) continue;
    if (detail.work) swapped.push(date);
    else festivals[festival].push(date);
  }
  const official = FESTIVALS.every((f) => festivals[f].length > 0);
  if (!official) {
    const lunar = (md: string) => getSolarDateFromLunar(`${year}-${md}`).date;
    const chingMing = getSolarTerms(`${year}-04-01`, `${year}-04-10`).find((t) => t.term === 'pure_brightness')?.date ?? `${year}-04-05`;
    const own: Record<Festival, string[]> = {
      festNewYear: [`${year}-01-01`],
      festSpring: [lunar('01-01')],
      festChingMing: [chingMing],
      festMayDay: [`${year}-05-01`],
      festDragonBoat: [lunar('05-05')],
      festMidAutumn: [lunar('08-15')],
      festNationalDay: [`${year}-10-01`, `${year}-10-02`, `${year}-10-03`],
    };
    return { year, official: false, festivals: own, workdays: [] };
  }
  return { year, official: true, festivals, workdays: swapped };
}
