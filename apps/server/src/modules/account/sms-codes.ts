import { createHash, randomInt } from 'node:crypto';
import { AccountLimits, translate, type Language, type SmsModeValue } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../platform/envelope.ts';

interface StoredCode {
  /** SHA-256 of the code: a cache dump does not reveal live codes */
  digest: string;
  expiresAt: number;
  attempts: number;
  /** the account the code was sent for (login, reset); null for a registration, which has none yet */
  account: string | null;
}

interface HourlyCount {
  count: number;
  since: number;
}

const normalisePhone = (phone: string) => phone.replace(/[\s-]/g, '');
// a code is bound to its purpose, its phone and its account: a code sent for one account never serves another sharing the phone
const codeKey = (mode: SmsModeValue, phone: string, account: string | null) => `sms:code:${mode}:${normalisePhone(phone)}:${account ?? '-'}`;
const cooldownKey = (mode: SmsModeValue, phone: string) => `sms:cooldown:${mode}:${normalisePhone(phone)}`;
const hourlyKey = (phone: string) => `sms:hourly:${normalisePhone(phone)}`;
const digestOf = (code: string) => createHash('sha256').update(code).digest('hex');
const HOUR_MS = 60 * 60_000;

/** Refuses when the phone got a code for this purpose within the last minute or too many within the hour. */
async function claimSendSlot(app: FastifyInstance, mode: SmsModeValue, phone: string): Promise<void> {
  const now = app.clock();
  const until = Number((await app.cache.get(cooldownKey(mode, phone))) ?? 0);
  if (until > now) refuse('sms.tooFrequent', { seconds: Math.ceil((until - now) / 1000) });
  const raw = await app.cache.get(hourlyKey(phone));
  const previous = raw ? (JSON.parse(raw) as HourlyCount) : null;
  const hourly: HourlyCount = previous && now - previous.since < HOUR_MS ? { count: previous.count + 1, since: previous.since } : { count: 1, since: now };
  if (hourly.count > AccountLimits.smsPerPhonePerHour) refuse('sms.hourlyLimitUntil', { minutes: Math.max(1, Math.ceil((hourly.since + HOUR_MS - now) / 60_000)) });
  await app.cache.set(hourlyKey(phone), JSON.stringify(hourly), hourly.since + HOUR_MS - now);
  await app.cache.set(cooldownKey(mode, phone), String(now + AccountLimits.smsCooldownMs), AccountLimits.smsCooldownMs);
}

/** Sends a fresh six-digit code to the phone for the account, valid ten minutes; an earlier code of the same purpose stops working. */
export async function sendSmsCode(app: FastifyInstance, mode: SmsModeValue, phone: string, account: string | null, lang: Language): Promise<void> {
  await claimSendSlot(app, mode, phone);
  const code = String(randomInt(0, 10 ** AccountLimits.smsCodeLength)).padStart(AccountLimits.smsCodeLength, '0');
  const stored: StoredCode = { digest: digestOf(code), expiresAt: app.clock() + AccountLimits.smsCodeLifetimeMs, attempts: 0, account };
  await app.cache.set(codeKey(mode, phone, account), JSON.stringify(stored), AccountLimits.smsCodeLifetimeMs);
  const minutes = AccountLimits.smsCodeLifetimeMs / 60_000;
  try {
    await app.sms.send({ phone: normalisePhone(phone), code, text: translate(lang, 'sms.message', { code, minutes }) });
  } catch (error) {
    app.log.error({ err: error, provider: app.sms.provider.name }, 'SMS could not be sent');
    await app.cache.del(codeKey(mode, phone, account));
    await app.cache.del(cooldownKey(mode, phone));
    refuse('sms.sendFailed');
  }
}

/**
 * Uses up the phone's code for this purpose, or refuses. Taking the code first makes it single use even under
 * concurrent calls; a wrong guess puts it back with one attempt fewer, and the fifth wrong guess discards it.
 */
export async function consumeSmsCode(app: FastifyInstance, mode: SmsModeValue, phone: string, account: string | null, code: string): Promise<void> {
  const key = codeKey(mode, phone, account);
  const raw = await app.cache.take(key);
  const stored = raw ? (JSON.parse(raw) as StoredCode) : null;
  const now = app.clock();
  if (!stored || stored.expiresAt <= now || stored.account !== account) refuse('sms.codeWrong');
  if (stored.digest === digestOf(code.trim())) return;
  const attempts = stored.attempts + 1;
  if (attempts < AccountLimits.codeAttempts) {
    await app.cache.set(key, JSON.stringify({ ...stored, attempts }), stored.expiresAt - now);
  }
  refuse('sms.codeWrong');
}
