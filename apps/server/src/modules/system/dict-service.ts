import { TENANT_DICT, type DictOption, type Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { SYSTEM_ADMIN_ROLE } from '../../platform/access.ts';
import { allDictionaryOptions, dictionaryOptionsJson, keptDictionaryOptionsJson } from '../../platform/dictionaries.ts';

/** Who reads the options: the tenant dictionary lists every tenant to system administrators, to others only their own. */
export interface DictReader {
  tenantId: string | null;
  systemAdmin: boolean;
}

function tenantsFor(reader: DictReader, options: readonly DictOption[]): DictOption[] {
  return reader.systemAdmin ? [...options] : options.filter((o) => o.value === reader.tenantId);
}

/** What the tenant dictionary's options depend on besides the language: who reads them (other dictionaries: nothing). */
function readerKey(code: string, reader: DictReader): string {
  if (code !== TENANT_DICT) return '';
  return reader.systemAdmin ? 'all' : `tenant:${reader.tenantId ?? ''}`;
}

/**
 * One dictionary's options for a reader (GET getDictItems) as the JSON of an answer's result, kept until the
 * dictionaries change.
 */
export async function dictOptionsJson(app: FastifyInstance, code: string, lang: Language, reader: DictReader): Promise<string> {
  return dictionaryOptionsJson(app, code, lang, readerKey(code, reader), (options) => (code === TENANT_DICT ? tenantsFor(reader, options) : options));
}

/** `dictOptionsJson`'s answer when this instance keeps it, without waiting (the warm path of every select); else undefined. */
export function keptDictOptionsJson(app: FastifyInstance, code: string, lang: Language, reader: DictReader): string | undefined {
  return keptDictionaryOptionsJson(app, code, lang, readerKey(code, reader));
}

/** Every dictionary in the reader's language (the login answer's `sysAllDictItems`). */
export async function allDictOptions(app: FastifyInstance, reader: DictReader, lang: Language): Promise<Record<string, DictOption[]>> {
  const all = await allDictionaryOptions(app, lang);
  return Object.hasOwn(all, TENANT_DICT) ? { ...all, [TENANT_DICT]: tenantsFor(reader, all[TENANT_DICT] ?? []) } : all;
}

/** The reader a user is as a session starts (the access hook knows it for every other call). */
export async function dictReaderOf(app: FastifyInstance, user: { id: string; tenant_id: string | null }): Promise<DictReader> {
  const admin = await app.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', user.id)
    .where('r.role_code', '=', SYSTEM_ADMIN_ROLE)
    .executeTakeFirst();
  return { tenantId: user.tenant_id, systemAdmin: Boolean(admin) };
}
