import type { EntityDeclaration } from '@isps/contract';

/** Query keys of one entity; every change invalidates `crudKeys.all(entity)`. */
export const crudKeys = {
  all: (entity: EntityDeclaration) => ['crud', entity.name] as const,
  list: (entity: EntityDeclaration, params: object) => ['crud', entity.name, 'list', params] as const,
  tree: (entity: EntityDeclaration) => ['crud', entity.name, 'tree'] as const,
  byId: (entity: EntityDeclaration, id: string) => ['crud', entity.name, 'byId', id] as const,
  recycleBin: (entity: EntityDeclaration, params: object) => ['crud', entity.name, 'recycleBin', params] as const,
};
