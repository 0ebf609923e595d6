export { CrudScreen, type CrudExtension, type CrudExtensionProps, type CrudScreenProps } from './crud-screen.tsx';
export { CrudTable, type CrudColumn, type CrudTableProps } from './crud-table.tsx';
export { SearchBar, type SearchBarProps, type SearchField } from './search-bar.tsx';
export { displayValue, fieldLabelKey, findEntity, type CrudRow } from './entity-fields.ts';
export { exportParams, filterParams, listParams, superQueryParams, type ListState, type SuperQuery } from './query-params.ts';
export { fieldRules, toApiValue } from './zod-rules.ts';
export { crudKeys } from './api/keys.ts';
export { usePager } from './use-pager.ts';
export { UserSelectModal, type UserSelectModalProps } from './user-select-modal.tsx';
