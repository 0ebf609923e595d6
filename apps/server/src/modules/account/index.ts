import fp from 'fastify-plugin';
import { accountRoutes } from './routes.ts';
import { refuseWhenUnactivated } from './activation-service.ts';
import { SmsGateway, createSmsProvider } from './sms.ts';
import { requireFactorForContactChange, secondFactorGate } from './two-factor-service.ts';
import type { UserDirectory } from './user-directory.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sms: SmsGateway;
    /** refuses unless a user with a second factor gives a current code (`code` as sent) to change their own phone or e-mail */
    guardOwnContactChange?: (user: { id: string; username: string }, code: unknown) => Promise<void>;
  }
}

/**
 * Registration, password reset, SMS codes, phone login, two-step verification, CAS and activation. Not
 * encapsulated on purpose: what it decorates (the second-factor gate, SMS) serves the routes registered after it; its
 * activation check is an admission gate of the access hook, so it holds for every non-public route.
 */
export const accountPlugin = fp<{ users: UserDirectory }>(
  async (api, options) => {
    api.decorate('userDirectory', options.users);
    api.decorate('sms', new SmsGateway(createSmsProvider(api.settings, api.log)));
    api.decorate('secondFactorGate', (user) => secondFactorGate(api, user));
    api.decorate('guardOwnContactChange', (user: { id: string; username: string }, code: unknown) => requireFactorForContactChange(api, user, code));
    // every non-public route, once its caller is admitted
    api.addAdmissionGate((_request, done) => refuseWhenUnactivated(api, done));
    await api.register(accountRoutes);
  },
  { name: 'account' },
);

export { casUserOf } from './cas-service.ts';
export { LogSmsProvider, WebhookSmsProvider, type SmsMessage, type SmsProvider } from './sms.ts';
export { totpCode } from './totp.ts';
export type { UserDirectory } from './user-directory.ts';
