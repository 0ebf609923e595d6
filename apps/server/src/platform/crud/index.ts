// The CRUD engine: one declaration in packages/contract becomes a table's routes. What each file owns:
//   engine.ts            registerEntity: builds the entity's runtime once, then registers each concern's routes
//   runtime.ts           EntityRuntime (shared by every concern, passed first), the hook and context types, scope, ids
//   reading.ts           the list's rows (data rules, search-index narrowing), one cached page (readPage), read routes
//   answered-rows.ts     rows as answered: seeded texts, masked fields, links, reference labels, dictionary texts
//   row-checks.ts        the checks of a written row: unique values (with an import's pending ones), a tree's parent
//   writing.ts           add, edit and delete: a new row prepared, rows stored with links and first versions, routes
//   links.ts             link fields: labels to ids on import, writing, removing and showing links, inbound links
//   recycle-bin.ts       the recycle bin routes: deleted rows, restoring them, deleting them completely
//   importing.ts         the import: rows checked and stored in batches as a job, initial values, the job's routes
//   import-jobs.ts       import jobs kept in the database: start, progress, refused rows, cancel, across instances
//   exporting.ts         the export route: the list's rows streamed as xlsx a page at a time
//   excel.ts             xlsx reading and writing: bounds, headers, streamed rows, the refused rows' workbook
//   audit.ts             the operation log entry of a generated route and the data log's versions of a row
//   link-options.ts      a form picker's choices for those who may write the entity (linkOptions route)
//   list-cache.ts        the list read cache: counts and pages kept by their SQL until a table they read is written
//   query.ts             a list query's paging, whitelisted sort and filter conditions
//   data-rules.ts        the caller's data rules on the entity's menu as WHERE conditions
//   values.ts            declared fields: readable ones, link fields, API rows, input validation, columns
//   references.ts        refuses a value naming a row the written row's tenant cannot see
//   reference-labels.ts  the labels of rows a reference field names, for answered rows
//   offered-options.ts   values a field's `optionsFrom` path offers, and the check that a value is one of them
//   tables.ts            the table of each declared entity and of each link field (server side only)
//   duplicate-check.ts   GET /sys/duplicate/check: is a unique value still free
//   index.ts             the folder's public surface
//   *.test.ts            API and unit tests of the above, on every configured database
export { registerEntity, type CrudContext, type EntityHooks, type RegisteredEntity } from './engine.ts';
export { entityOfTable, linkOf, tableOf } from './tables.ts';
export { duplicateCheckRoutes } from './duplicate-check.ts';
export { readableFields } from './values.ts';
export { offerValues } from './offered-options.ts';
