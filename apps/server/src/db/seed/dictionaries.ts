import { seededDictionaries } from '@isps/contract';

/** Dictionaries the spec names, stored with their English texts (shown translated while unchanged). */
export interface DictionaryDefinition {
  code: string;
  name: string;
  items: ReadonlyArray<readonly [value: string, text: string]>;
}

export const dictionaryDefinition: readonly DictionaryDefinition[] = seededDictionaries.map((d) => ({
  code: d.code,
  name: d.name,
  items: d.items.map(([value, text]) => [value, text] as const),
}));
