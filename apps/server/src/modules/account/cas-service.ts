import type { Language, LoginResult, SecondFactorChallenge } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../platform/envelope.ts';
import { fetchText } from '../../platform/outbound.ts';
import { secondFactorGate } from './two-factor-service.ts';
import { USER_STATUS_NORMAL } from './user-directory.ts';

const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'", '&amp;': '&' };

function decodeXmlText(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (entity) => entities[entity] ?? entity).trim();
}

/** The user of a CAS 2.0/3.0 serviceValidate answer, or null when it reports a failure or is not one. */
export function casUserOf(xml: string): string | null {
  const success = /<(?:\w+:)?authenticationSuccess\b[^>]*>([\s\S]*?)<\/(?:\w+:)?authenticationSuccess>/.exec(xml);
  if (!success?.[1]) return null;
  const user = /<(?:\w+:)?user\b[^>]*>([\s\S]*?)<\/(?:\w+:)?user>/.exec(success[1]);
  const name = user?.[1] ? decodeXmlText(user[1]) : '';
  return name ? name : null;
}

/**
 * GET /cas/client/validateLogin: the ticket is checked by the CAS server for the console's own service URL
 * (CAS_SERVICE_URL), never for a service the caller names, and its user must be an active local user. The ticket stands
 * for the password only: users with two-step verification (or administrators who must) still give their code.
 */
export async function validateCasTicket(app: FastifyInstance, ticket: string, ip: string, lang: Language): Promise<LoginResult | SecondFactorChallenge> {
  const base = app.settings.casServerUrl;
  const service = app.settings.casServiceUrl;
  if (!base || !service) refuse('cas.notConfigured');
  const url = `${base}/serviceValidate?${new URLSearchParams({ ticket, service }).toString()}`;
  let xml: string;
  try {
    xml = await fetchText(url, app.settings.outboundTimeoutMs);
  } catch (error) {
    app.log.warn({ err: error }, 'CAS ticket validation failed');
    refuse('cas.ticketInvalid');
  }
  const casUser = casUserOf(xml);
  if (!casUser) refuse('cas.ticketInvalid');
  const user = await app.userDirectory.findActiveUserByName(app, casUser);
  if (!user) refuse('cas.noLocalUser', { user: casUser.slice(0, 100) });
  if (Number(user.status) !== USER_STATUS_NORMAL) refuse('login.frozen');
  const challenge = await secondFactorGate(app, user);
  if (challenge) return challenge;
  return app.userDirectory.startSession(app, user, ip, { key: 'log.signedInCas', params: { username: user.username } }, lang);
}
