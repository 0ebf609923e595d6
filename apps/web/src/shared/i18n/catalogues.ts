import { enUS } from '../../locales/en-US.ts';
import { jaJP } from '../../locales/ja-JP.ts';
import { zhCN } from '../../locales/zh-CN.ts';

/** All three catalogues at once, for tests; the console itself loads only the active one (loadCatalogue). */
export const catalogues = { 'zh-CN': zhCN, 'en-US': enUS, 'ja-JP': jaJP } as const;
