import type { EntityDeclaration } from '@isps/contract';
import { CrudScreen, type CrudExtension } from '../../shared/crud/index.ts';
import { cabinetExtension } from './allocate/allocate-action.tsx';

const extensions: Record<string, CrudExtension> = { cabinet: cabinetExtension };

/** The storage area's declared screens: the generic screen plus the lockers' allocation. */
export function StorageEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extensions[entity.name]} />;
}
