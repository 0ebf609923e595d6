import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Limits } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from './clock.ts';

/** What a revocation ended: one token, named by its fingerprint, or every token of a user. */
export type TokenRevocation = { tokenHash: string } | { userId: string };
export type RevocationListener = (revoked: TokenRevocation) => Promise<void> | void;

/** Opaque bearer tokens: 32 random bytes given to the client, only a peppered SHA-256 kept (DESIGN section 5). */
export class TokenService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pepper: string,
    private readonly clock: Clock,
  ) {}

  private readonly revocationListeners = new Set<RevocationListener>();

  /** The stored form of a token; also how a revocation names the token it ended. */
  fingerprint(token: string): string {
    return createHash('sha256').update(this.pepper + token).digest('hex');
  }

  /** Called after each revocation (the real-time hub closes the sockets opened with the ended tokens). */
  onRevoked(listener: RevocationListener): () => void {
    this.revocationListeners.add(listener);
    return () => void this.revocationListeners.delete(listener);
  }

  private async announce(revoked: TokenRevocation): Promise<void> {
    // the tokens are gone already; a listener that fails (a lost bus) must not turn the logout into an error
    await Promise.allSettled([...this.revocationListeners].map(async (listener) => listener(revoked)));
  }

  async issue(userId: string, createdBy: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.db
      .insertInto('sys_user_token')
      .values({
        id: randomUUID(),
        user_id: userId,
        token_hash: this.fingerprint(token),
        expires_at: new Date(now + Limits.tokenLifetimeMs).toISOString(),
        create_by: createdBy,
        create_time: new Date(now).toISOString(),
        update_by: null,
        update_time: null,
      })
      .execute();
    return token;
  }

  /** The user id of a valid, unexpired token, or null. */
  async resolve(token: string): Promise<string | null> {
    const session = await this.session(token);
    return session && session.expiresAt > this.clock() ? session.userId : null;
  }

  /** The user and expiry (epoch ms) of a stored token, expired or not, or null (what the access cache keeps). */
  async session(token: string): Promise<{ userId: string; expiresAt: number } | null> {
    if (token.length < 20 || token.length > 100) return null;
    const row = await this.db
      .selectFrom('sys_user_token')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', this.fingerprint(token))
      .executeTakeFirst();
    const expiresAt = row ? Date.parse(row.expires_at) : Number.NaN;
    return row && Number.isFinite(expiresAt) ? { userId: row.user_id, expiresAt } : null;
  }

  /** When a valid token expires (epoch ms), or null for an unknown or expired one. */
  async expiryOf(token: string): Promise<number | null> {
    if (token.length < 20 || token.length > 100) return null;
    const row = await this.db.selectFrom('sys_user_token').select('expires_at').where('token_hash', '=', this.fingerprint(token)).executeTakeFirst();
    const at = row ? Date.parse(row.expires_at) : Number.NaN;
    return Number.isFinite(at) && at > this.clock() ? at : null;
  }

  async revoke(token: string): Promise<void> {
    const tokenHash = this.fingerprint(token);
    await this.db.deleteFrom('sys_user_token').where('token_hash', '=', tokenHash).execute();
    await this.announce({ tokenHash });
  }

  async revokeAllOf(userId: string): Promise<void> {
    await this.db.deleteFrom('sys_user_token').where('user_id', '=', userId).execute();
    await this.announce({ userId });
  }

  async countActive(): Promise<number> {
    const row = await this.db
      .selectFrom('sys_user_token')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('expires_at', '>', new Date(this.clock()).toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Expired rows are useless; dropping them keeps the table small. */
  async purgeExpired(): Promise<void> {
    await this.db.deleteFrom('sys_user_token').where('expires_at', '<=', new Date(this.clock()).toISOString()).execute();
  }
}
