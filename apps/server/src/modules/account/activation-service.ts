import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ActivationStatus, IssuedActivationCode } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, refuse } from '../../platform/envelope.ts';
import { base32Encode } from './totp.ts';
import { SettingKey, readSetting, writeSetting } from './settings.ts';

/** An issued code can be entered within 30 days. */
const CODE_VALIDITY_MS = 30 * 24 * 60 * 60_000;
/** Every request of every caller would otherwise read two setting rows. */
const STATUS_MEMO_MS = 5000;

const normalise = (code: string) => code.toUpperCase().replace(/[^A-Z2-7]/g, '');
const digestOf = (code: string) => createHash('sha256').update(normalise(code)).digest('hex');

let memo: { app: FastifyInstance; at: number; status: ActivationStatus } | null = null;

export function forgetActivationStatus(): void {
  memo = null;
}

/** The remembered status while it is fresh, without waiting (every protected request asks it). */
function keptActivationStatus(app: FastifyInstance): ActivationStatus | undefined {
  const now = app.clock();
  return memo && memo.app === app && now - memo.at < STATUS_MEMO_MS && now >= memo.at ? memo.status : undefined;
}

export async function activationStatus(app: FastifyInstance): Promise<ActivationStatus> {
  const kept = keptActivationStatus(app);
  if (kept) return kept;
  const now = app.clock();
  const required = (await readSetting(app, SettingKey.activationRequired)) === '1';
  const authorizedUntil = await readSetting(app, SettingKey.authorizedUntil);
  const expired = required && (!authorizedUntil || authorizedUntil <= new Date(now).toISOString());
  const status = { required, authorizedUntil, expired };
  memo = { app, at: now, status };
  return status;
}

/** Is an authorisation installed that still runs? */
export async function hasValidAuthorization(app: FastifyInstance): Promise<boolean> {
  const authorizedUntil = await readSetting(app, SettingKey.authorizedUntil);
  return authorizedUntil !== null && authorizedUntil > new Date(app.clock()).toISOString();
}

/** onRequest for every protected route (callback style, answered in the same turn while the status is remembered): with
 * activation required and the authorisation over, the spec's 500 reaction. */
function refusal(status: ActivationStatus): AppError | undefined {
  return status.expired ? new AppError('internal', 'activation.expired') : undefined;
}

export function refuseWhenUnactivated(app: FastifyInstance, done: (error?: Error) => void): void {
  const kept = keptActivationStatus(app);
  if (kept) return done(refusal(kept));
  activationStatus(app).then((status) => done(refusal(status)), done);
}

/** A code shown once; only its digest is kept. */
export async function issueActivationCode(app: FastifyInstance, days: number, by: string): Promise<IssuedActivationCode> {
  const now = app.clock();
  const code = base32Encode(randomBytes(15)).match(/.{1,6}/g)?.join('-') ?? '';
  const authorizedUntil = new Date(now + days * 24 * 60 * 60_000).toISOString();
  await app.db
    .insertInto('sys_activation_code')
    .values({
      id: randomUUID(),
      code_hash: digestOf(code),
      authorized_until: authorizedUntil,
      expires_at: new Date(now + CODE_VALIDITY_MS).toISOString(),
      used_at: null,
      create_by: by,
      create_time: new Date(now).toISOString(),
      update_by: null,
      update_time: null,
    })
    .execute();
  return { code, authorizedUntil };
}

export async function activate(app: FastifyInstance, code: string): Promise<ActivationStatus> {
  const nowIso = new Date(app.clock()).toISOString();
  const row = await app.db
    .selectFrom('sys_activation_code')
    .selectAll()
    .where('code_hash', '=', digestOf(code))
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  if (!row) refuse('activation.codeInvalid');
  const used = await app.db
    .updateTable('sys_activation_code')
    .set({ used_at: nowIso, update_by: 'activation', update_time: nowIso })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) refuse('activation.codeInvalid');
  await writeSetting(app, SettingKey.authorizedUntil, row.authorized_until, 'activation');
  forgetActivationStatus();
  return activationStatus(app);
}
