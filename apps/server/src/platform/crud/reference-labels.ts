import type { EntityDeclaration, Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { CurrentUser } from '../access.ts';
import { showSeededRows } from '../seeded-texts.ts';
import { tenantScoped } from '../tenancy.ts';
import { tableOf } from './tables.ts';
import { readableFields } from './values.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

/** The fields whose value is the id of another registered entity's row, shown to a reader by that row's label. */
function referenceFields(entity: EntityDeclaration): Array<{ name: string; target: string; labelField?: string }> {
  return Object.entries(entity.fields).flatMap(([name, field]) =>
    field.references && !field.references.valueField && !field.link && !field.dict && field.widget.kind === 'entitySelect'
      ? [{ name, target: field.references.entity, ...(field.widget.labelField ? { labelField: field.widget.labelField } : {}) }]
      : [],
  );
}

/**
 * Gives each answered row `<field>_dictText` with the label of the row a reference field names (a person's name, a
 * door's, a device's, not their ids), read within the caller's tenant only (a row of another tenant is never named),
 * deleted rows included (an old access event still names the person who passed). An id with no such row gets none.
 */
export async function withReferenceLabels(app: FastifyInstance, entity: EntityDeclaration, rows: Row[], caller: CurrentUser, lang: Language): Promise<void> {
  if (rows.length === 0) return;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = app.db as unknown as Kysely<any>;
  for (const { name, target, labelField } of referenceFields(entity)) {
    const registered = app.crudEntities.get(tableOf(target));
    if (!registered) continue;
    const declaration = registered.declaration;
    const ids = [...new Set(rows.map((r) => r[name]).filter((v): v is string => typeof v === 'string' && v !== ''))];
    if (ids.length === 0) continue;
    // the label the field's picker shows (a visitor's host by real name), else the linked screen's own
    const readable = readableFields(declaration);
    const labelColumn = readable.get(labelField ?? declaration.labelField)?.column ?? readable.get(declaration.labelField)?.column ?? 'id';
    let reading = db.selectFrom(tableOf(declaration)).selectAll().where('id', 'in', ids);
    if (declaration.tenantScoped) reading = tenantScoped(reading, caller);
    const found = await showSeededRows(app, declaration.name, (await reading.execute()) as Row[], lang);
    const labels = new Map(found.map((r) => [r.id as string, r[labelColumn]]));
    for (const row of rows) {
      const label = labels.get(row[name] as string);
      if (label !== undefined && label !== null) row[`${name}_dictText`] = String(label);
    }
  }
}
