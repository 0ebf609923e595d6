import { useEntityOptions } from './api/entity-options.ts';
import { findEntity } from './entity-fields.ts';

/**
 * A list cell of a field that holds ids of another entity's rows: their labels (a device's name, not its id),
 * read from that entity's options, which the form's picker shares; the stored value while they load or if unreadable.
 */
export function EntityLabel({ entityName, labelField, value }: { entityName: string; labelField: string; value: unknown }) {
  const options = useEntityOptions(findEntity(entityName), labelField);
  const values = value === null || value === undefined || value === '' ? [] : String(value).split(',');
  const labels = values.map((v) => options.data?.find((o) => o.value === v)?.label ?? v);
  return <>{labels.join(', ')}</>;
}
