import type { DictOption, Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { dictionaryOptions, storedOptions } from '../../platform/dictionaries.ts';

export async function dictOptions(app: FastifyInstance, code: string, lang: Language): Promise<DictOption[]> {
  return dictionaryOptions(app, code, lang);
}

/** Every dictionary with its texts as stored (the reader's language is not known where sessions start). */
export async function allDictOptions(app: FastifyInstance): Promise<Record<string, DictOption[]>> {
  return storedOptions(app);
}
