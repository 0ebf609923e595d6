export { registerEntity, type CrudContext, type EntityHooks, type RegisteredEntity } from './engine.ts';
export { entityOfTable, linkOf, tableOf } from './tables.ts';
export { duplicateCheckRoutes } from './duplicate-check.ts';
export { readableFields } from './values.ts';
export { offerValues } from './offered-options.ts';
