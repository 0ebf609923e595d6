import { useEntityOptions } from './api/entity-options.ts';
import { findEntity } from './entity-fields.ts';

/**
 * The labels of ids of another entity's rows (a device's name, not its id), read from that entity's options, which the
 * form's picker shares; null for an id while they load or when it is unreadable.
 */
export function useEntityLabels(entityName: string, labelField: string, value: unknown): (string | null)[] {
  const options = useEntityOptions(findEntity(entityName), labelField);
  const values = value === null || value === undefined || value === '' ? [] : String(value).split(',');
  return values.map((v) => options.data?.find((o) => o.value === v)?.label ?? null);
}

/** A list cell of a field that holds ids of another entity's rows: their labels, the stored value while they load or if unreadable. */
export function EntityLabel({ entityName, labelField, value }: { entityName: string; labelField: string; value: unknown }) {
  const labels = useEntityLabels(entityName, labelField, value);
  const values = value === null || value === undefined || value === '' ? [] : String(value).split(',');
  return <>{labels.map((label, i) => label ?? values[i]).join(', ')}</>;
}
