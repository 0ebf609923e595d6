import type { EntityDeclaration } from '@isps/contract';
import { CrudScreen } from '../../shared/crud/index.ts';
import { extensionOf } from './extensions.tsx';

/** A system screen that is only a declaration: the generic CRUD screen plus the entity's extension, if any. */
export function SystemEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extensionOf(entity)} />;
}
