import { entityLabel, type EntityDeclaration, type Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../access.ts';
import { AppError } from '../envelope.ts';
import { tableOf } from './tables.ts';
import { linkIds, readableFields } from './values.ts';

/** A field whose value names rows of another entity: a declared reference (one value) or a link field (ids joined by commas). */
export interface ReferenceField {
  name: string;
  label: string;
  entity: string;
  /** the named entity's field the value holds */
  valueField: string;
  multiple: boolean;
}

const fieldsOf = new WeakMap<EntityDeclaration, ReferenceField[]>();

/** The fields of an entity that name rows of another (tree parents are checked with the tree, in the engine). */
export function referenceFields(entity: EntityDeclaration): ReferenceField[] {
  let found = fieldsOf.get(entity);
  if (!found) {
    found = Object.entries(entity.fields).flatMap(([name, decl]): ReferenceField[] => {
      if (decl.link) return [{ name, label: decl.label, entity: decl.link.entity, valueField: 'id', multiple: true }];
      if (decl.references) return [{ name, label: decl.label, entity: decl.references.entity, valueField: decl.references.valueField ?? 'id', multiple: false }];
      return [];
    });
    fieldsOf.set(entity, found);
  }
  return found;
}

export interface ReferenceScope {
  /** the tenant the written row is in (a system administrator may place it in another than his own) */
  tenantId?: string | null;
  /** the row's stored values: a reference it already holds is kept as it is (a row since deleted stays named) */
  stored?: Readonly<Record<string, unknown>>;
}

/**
 * Refuses a value naming a row that the written row's tenant cannot see (another tenant's, deleted or unknown):
 * the one check behind every field that names another row, run by the engine on add, edit and import, and by
 * custom routes that write such fields.
 */
export async function checkReferences(app: FastifyInstance, caller: CurrentUser, lang: Language, entity: EntityDeclaration, values: Readonly<Record<string, unknown>>, scope: ReferenceScope = {}): Promise<void> {
  // a tenant-scoped row names rows of its own tenant, whoever writes it
  const viewer = entity.tenantScoped && scope.tenantId !== undefined ? { ...caller, tenantScope: scope.tenantId } : caller;
  for (const field of referenceFields(entity)) {
    const value = values[field.name];
    if (value === undefined || value === null || value === '') continue;
    if (scope.stored && !field.multiple && String(scope.stored[field.name] ?? '') === String(value)) continue;
    const wanted = [...new Set(field.multiple ? linkIds(value) : [String(value)])];
    if (wanted.length === 0) continue;
    const target = app.crudEntities.get(tableOf(field.entity));
    // every declared entity is registered in the app; a missing one is a wiring mistake, never a pass
    if (!target) throw new Error(`${entity.name}.${field.name} names ${field.entity}, which is not registered`);
    const column = readableFields(target.declaration).get(field.valueField)?.column ?? 'id';
    const found = await target.scoped(viewer).clearSelect().select(`${column} as value`).where(column, 'in', wanted).execute();
    const seen = new Set(found.map((r) => String(r.value)));
    if (wanted.some((v) => !seen.has(v))) throw new AppError('badRequest', 'validation.referenceMissing', { field: entityLabel(lang, field.label) });
  }
}
