import type { EntityDeclaration } from '@isps/contract';
import { CrudScreen, type CrudExtension } from '../../shared/crud/index.ts';
import { keyExtension } from './history/history-action.tsx';

const extensions: Record<string, CrudExtension> = { key: keyExtension };

/** The key area's declared screens (keys, key people, key roles): the generic screen plus each key's history. */
export function KeyEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extensions[entity.name]} />;
}
