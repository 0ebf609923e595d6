export { i18n, catalogues, translateTitle } from './i18n.ts';
export { isLanguage, storedLanguage, switchLanguage } from './language.ts';
