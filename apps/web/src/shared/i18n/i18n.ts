import { entityLabels, type Language } from '@isps/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enUS } from '../../locales/en-US.ts';
import { jaJP } from '../../locales/ja-JP.ts';
import { zhCN } from '../../locales/zh-CN.ts';
import { storedLanguage } from './language.ts';

export const catalogues = { 'zh-CN': zhCN, 'en-US': enUS, 'ja-JP': jaJP } as const;

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: 'en-US',
  // Keys are flat dotted strings such as 'menu.dashboard.analysis' (menu titles double as keys).
  keySeparator: false,
  nsSeparator: false,
  // Entity titles and field labels come from the contract (the server uses them too); console messages win on a clash.
  resources: Object.fromEntries(
    Object.entries(catalogues).map(([lng, messages]) => [lng, { translation: { ...entityLabels[lng as Language], ...messages } }]),
  ),
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** A menu title is a catalogue key; one without an entry is shown as written. */
export function translateTitle(title: string | undefined | null): string {
  if (!title) return '';
  return i18n.exists(title) ? i18n.t(title) : title;
}
