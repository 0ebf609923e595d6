export { addCatalogue, i18n, loadCatalogue, loadWidgetTexts, loadedAntdLocale, translateTitle } from './i18n.ts';
export { catalogues } from './catalogues.ts';
export { addEntityLabels, loadEntityLabels } from './entity-labels.ts';
export { isLanguage, storedLanguage, switchLanguage } from './language.ts';
