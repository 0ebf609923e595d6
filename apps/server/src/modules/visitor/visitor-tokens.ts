import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Limits } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { resolveTokenPepper } from '../../config.ts';

/**
 * Visitor sessions: their own table and their own digest prefix, so a visitor token never resolves to a staff
 * user (staff routes answer 401) and a staff token never resolves to a visitor (visitor routes answer 401).
 */
export class VisitorTokenService {
  private readonly pepper: string;

  constructor(private readonly app: FastifyInstance) {
    this.pepper = resolveTokenPepper(app.settings);
  }

  private digest(token: string): string {
    return createHash('sha256').update(`visitor:${this.pepper}:${token}`).digest('hex');
  }

  async issue(visitorId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.app.clock();
    await this.app.db
      .insertInto('sys_visitor_token')
      .values({
        id: randomUUID(),
        visitor_id: visitorId,
        token_hash: this.digest(token),
        expires_at: new Date(now + Limits.tokenLifetimeMs).toISOString(),
        create_by: 'visitor',
        create_time: new Date(now).toISOString(),
        update_by: null,
        update_time: null,
      })
      .execute();
    return token;
  }

  async resolve(token: string): Promise<string | null> {
    if (token.length < 20 || token.length > 100) return null;
    const row = await this.app.db.selectFrom('sys_visitor_token').select(['visitor_id', 'expires_at']).where('token_hash', '=', this.digest(token)).executeTakeFirst();
    if (!row || row.expires_at <= new Date(this.app.clock()).toISOString()) return null;
    return row.visitor_id;
  }

  async revoke(token: string): Promise<void> {
    await this.app.db.deleteFrom('sys_visitor_token').where('token_hash', '=', this.digest(token)).execute();
  }
}
