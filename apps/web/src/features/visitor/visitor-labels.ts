import { VISITOR_CATEGORY_OPTIONS, type VisitorCategory } from '@isps/contract';

/** i18n keys of the visitor categories (texts in the contract's entity labels, merged into the catalogues). */
export const categoryKey = Object.fromEntries(VISITOR_CATEGORY_OPTIONS.map((o) => [o.value, o.label])) as Record<VisitorCategory, string>;
