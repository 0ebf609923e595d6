import type { Language } from '@isps/contract';
import type { Locale } from 'antd/es/locale';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { MessageKey } from '../../locales/en-US.ts';
import { storedLanguage } from './language.ts';

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: 'en-US',
  // Keys are flat dotted strings such as 'menu.dashboard.analysis' (menu titles double as keys).
  keySeparator: false,
  nsSeparator: false,
  // The catalogues arrive by loadCatalogue (only the active language's: a switch reloads the page) and addEntityLabels.
  resources: {},
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Each language's console messages, a chunk of its own: the login page downloads one language, not three. */
const catalogueLoaders: Record<Language, () => Promise<Record<MessageKey, string>>> = {
  'zh-CN': () => import('../../locales/zh-CN.ts').then((m) => m.zhCN),
  'en-US': () => import('../../locales/en-US.ts').then((m) => m.enUS),
  'ja-JP': () => import('../../locales/ja-JP.ts').then((m) => m.jaJP),
};

interface WidgetLocale {
  antdLocale: Locale;
  dayjsLocale: string;
}

/** antd's and dayjs's texts in each language, a chunk of its own, loaded with antd (the login page needs neither). */
const widgetLoaders: Record<Language, () => Promise<WidgetLocale>> = {
  'zh-CN': () => import('../../locales/widgets/zh-CN.ts'),
  'en-US': () => import('../../locales/widgets/en-US.ts'),
  'ja-JP': () => import('../../locales/widgets/ja-JP.ts'),
};

let antdLocale: Locale | undefined;

/** antd's texts in the loaded language (undefined until loadWidgetTexts: antd's own English). */
export function loadedAntdLocale(): Locale | undefined {
  return antdLocale;
}

/** Adds a language's console messages (they win over entity labels of the same key). */
export function addCatalogue(language: Language, messages: Record<string, string>): void {
  i18n.addResourceBundle(language, 'translation', messages, true, true);
}

/** Downloads and adds the console messages of `language`; the console renders once they are in. */
export async function loadCatalogue(language: Language): Promise<void> {
  addCatalogue(language, await catalogueLoaders[language]());
}

const widgetTexts = new Map<Language, Promise<void>>();

/** Downloads antd's and dayjs's texts in `language` (once): antd's context waits for them before it draws. */
export function loadWidgetTexts(language: Language): Promise<void> {
  let loading = widgetTexts.get(language);
  if (!loading) {
    loading = Promise.all([widgetLoaders[language](), import('dayjs')]).then(([widgets, { default: dayjs }]) => {
      antdLocale = widgets.antdLocale;
      dayjs.locale(widgets.dayjsLocale);
    });
    widgetTexts.set(language, loading);
  }
  return loading;
}

/** A menu title is a catalogue key; one without an entry is shown as written. */
export function translateTitle(title: string | undefined | null): string {
  if (!title) return '';
  return i18n.exists(title) ? i18n.t(title) : title;
}
