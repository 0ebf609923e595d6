import { translate, type Language } from '@isps/contract';
import type { CurrentUser } from '../access.ts';
import { AppError, refuse } from '../envelope.ts';
import type { EntityRuntime, Row } from './runtime.ts';
import { readableFields } from './values.ts';

/**
 * Refuses a value a unique field already holds (within the caller's tenant for tenant-scoped entities). `pending`
 * holds the values of rows an import checked but has not stored yet, so two rows of one file cannot share one.
 */
export async function checkUnique(rt: EntityRuntime, lang: Language, values: Row, tenantId: string | null, exceptId: string | null, merged: Row, pending?: Map<string, Set<string>>): Promise<void> {
  const { db, entity, table } = rt;
  const pendingKeys: Array<[string, string]> = [];
  for (const unique of entity.unique ?? []) {
    const value = values[unique.field];
    if (value === null || value === undefined || value === '') continue;
    const info = readableFields(entity).get(unique.field);
    if (!info) continue;
    // deleted rows count too: they can be restored, and the database keeps their values unique
    let query = db.selectFrom(table).select(entity.softDelete ? ['id', 'del_flag'] : ['id']).where(info.column, '=', value);
    for (const other of unique.within ?? []) {
      const otherInfo = readableFields(entity).get(other);
      if (!otherInfo) continue;
      // an empty group (a root row's missing parent) is NULL, which `=` never matches
      const group = merged[other];
      query = group === null || group === undefined || group === '' ? query.where(otherInfo.column, 'is', null) : query.where(otherInfo.column, '=', group);
    }
    if (entity.tenantScoped && !unique.global) query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
    if (exceptId) query = query.where('id', '<>', exceptId);
    const holder = await query.executeTakeFirst();
    const groups = unique.within ?? [];
    const top = groups.length > 0 && groups.every((other) => merged[other] === null || merged[other] === undefined || merged[other] === '');
    const message = top && unique.topMessage ? unique.topMessage : unique.message;
    if (holder && entity.softDelete && Number(holder.del_flag) === 1) refuse('crud.duplicateInRecycleBin', { message: translate(lang, message) });
    if (holder) refuse(message);
    if (pending) {
      const scope = entity.tenantScoped && !unique.global ? String(tenantId) : '';
      const key = JSON.stringify([scope, ...(unique.within ?? []).map((other) => merged[other] ?? null), String(value)]);
      if (pending.get(unique.field)?.has(key)) refuse(message);
      pendingKeys.push([unique.field, key]);
    }
  }
  for (const [field, key] of pendingKeys) {
    const held = pending?.get(field) ?? new Set<string>();
    held.add(key);
    pending?.set(field, held);
  }
}

/** A tree row's parent: none (stored as NULL), or a row the caller can read that is not the row itself nor below it. */
export async function checkParent(rt: EntityRuntime, caller: CurrentUser, values: Row, selfId: string | null): Promise<void> {
  const { entity } = rt;
  if (!entity.tree) return;
  const parentId = values[entity.tree.parentField];
  if (parentId === null || parentId === undefined || parentId === '' || parentId === '0') {
    if (parentId !== undefined) values[entity.tree.parentField] = null;
    return;
  }
  const parentColumn = readableFields(entity).get(entity.tree.parentField)?.column as string;
  let cursor: string | null = String(parentId);
  for (let depth = 0; cursor && depth < 100; depth++) {
    if (cursor === selfId) throw new AppError('badRequest', 'validation.parentSelf');
    const parent: Row | undefined = await rt.registered.findById(caller, cursor);
    if (!parent) throw new AppError('badRequest', 'validation.parentMissing');
    cursor = parent[parentColumn] ?? null;
  }
}
