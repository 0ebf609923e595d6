import type { DictOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { allDictionaryOptions, dictionaryOptions } from '../../platform/dictionaries.ts';

export async function dictOptions(app: FastifyInstance, code: string): Promise<DictOption[]> {
  return dictionaryOptions(app, code);
}

export async function allDictOptions(app: FastifyInstance): Promise<Record<string, DictOption[]>> {
  return allDictionaryOptions(app);
}
