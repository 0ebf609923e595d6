import { entityLabel, type EntityDeclaration, type Language } from '@isps/contract';
import { AppError } from '../envelope.ts';

// what a path offers comes from code, not from a request or an instance, so one table serves every app in the process
const offered = new Map<string, ReadonlySet<string>>();

/** Records the values GET `path` offers, so that a field declaring `optionsFrom: path` accepts only those. */
export function offerValues<T extends { value: string }>(path: string, options: readonly T[]): readonly T[] {
  offered.set(path, new Set(options.map((o) => o.value)));
  return options;
}

/** Refuses a value of a field with `optionsFrom` that its path does not offer (an unrecorded path offers nothing). */
export function checkOfferedValues(entity: EntityDeclaration, lang: Language, values: Readonly<Record<string, unknown>>): void {
  for (const [name, decl] of Object.entries(entity.fields)) {
    const value = values[name];
    if (!decl.optionsFrom || value === undefined || value === null || value === '') continue;
    if (!offered.get(decl.optionsFrom)?.has(String(value))) throw new AppError('badRequest', 'validation.invalid', { field: entityLabel(lang, decl.label) });
  }
}
