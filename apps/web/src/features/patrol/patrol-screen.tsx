import type { EntityDeclaration } from '@isps/contract';
import { CrudScreen, type CrudExtension } from '../../shared/crud/index.ts';
import { taskExtension } from './task-extension.tsx';

const extensions: Record<string, CrudExtension> = { patrolTask: taskExtension };

/** The patrol area's declared screens (routes, points, missions, tasks, point checks, records): the generic screen plus tasks' progress. */
export function PatrolEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extensions[entity.name]} />;
}
