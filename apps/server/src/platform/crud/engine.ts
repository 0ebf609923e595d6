import type { EntityDeclaration } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { detailRoutes } from './details.ts';
import { exportRoute } from './exporting.ts';
import { importRoutes } from './importing.ts';
import { linkOptionsRoute } from './link-options.ts';
import { listRows, readRoutes } from './reading.ts';
import { recycleBinRoutes } from './recycle-bin.ts';
import { entityRuntime, type EntityHooks, type EntityRuntime, type RegisteredEntity } from './runtime.ts';
import { writeRoutes } from './writing.ts';

export type { CrudContext, EntityHooks, RegisteredEntity } from './runtime.ts';

/**
 * Registers one declared entity: its runtime, built once and passed to each concern, then the generated routes of
 * each concern its actions declare, then the screen's own `hooks.routes`.
 */
export function registerEntity(app: FastifyInstance, entity: EntityDeclaration, hooks: EntityHooks = {}): RegisteredEntity {
  const runtime: EntityRuntime = entityRuntime(app, entity, hooks, (caller, query) => listRows(runtime, caller, query));
  // a table two entities share (device roles and key roles) answers for its first: the other keeps to its own rows
  if (!app.crudEntities.has(runtime.table)) app.crudEntities.set(runtime.table, runtime.registered);

  app.register(async (routes) => {
    readRoutes(runtime, routes);
    detailRoutes(runtime, routes);
    // the form's pickers: for those who may add or edit a row, whatever they may read of the linked lists
    const writers = (['add', 'edit'] as const).filter((action) => runtime.actions.has(action)).map(runtime.perm);
    if (writers.length > 0) linkOptionsRoute(app, routes, entity, writers, (linked) => app.crudEntities.get(linked));
    writeRoutes(runtime, routes);
    recycleBinRoutes(runtime, routes);
    exportRoute(runtime, routes);
    importRoutes(runtime, routes);
    await hooks.routes?.(routes, runtime.registered);
  });
  return runtime.registered;
}
