import {
  AccountLimits,
  AccountPath,
  DeclaredPath,
  accountSettingsBody,
  activateBody,
  activationIssueBody,
  casValidateQuery,
  needsSecondFactor,
  phoneLoginBody,
  registerBody,
  registerCheckQuery,
  resetAccountBody,
  resetPasswordBody,
  resetSendCodeBody,
  loginSettingsQuery,
  resetVerifyBody,
  smsBody,
  twoFactorChallengeBody,
  twoFactorCodeBody,
  twoFactorLoginBody,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/access.ts';
import { AppError, envelope, refuse } from '../../platform/envelope.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { checkRegistrationValue, phoneLogin, register, requestSmsCode, resetFindAccount, resetPassword, resetSendCode, resetVerify } from './account-service.ts';
import { activate, activationStatus, forgetActivationStatus, hasValidAuthorization, issueActivationCode } from './activation-service.ts';
import { validateCasTicket } from './cas-service.ts';
import { SettingKey, loginSettings, readAccountSettings, writeSetting } from './settings.ts';
import { completeLogin, confirmEnrollment, disable, enroll, enrollDuringLogin, isSystemAdmin, twoFactorStatus } from './two-factor-service.ts';

const tags = ['account'];
const perMinute = (max: number) => ({ max, timeWindow: 60_000 });

async function requireSystemAdmin(app: FastifyInstance, userId: string): Promise<void> {
  if (!(await isSystemAdmin(app, userId))) throw new AppError('forbidden', 'error.forbidden', { code: 'admin' });
}

/** The API description of a declared call (SPEC section 7) that answers as one of ours. */
const aliasOf = (method: string, path: string) => `Declared call of SPEC section 7: an alias of ${method} ${path}, with the same body, rules and answer.`;

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const login = perMinute(app.settings.rateLimit.loginPerMinute);
  const sms = perMinute(AccountLimits.smsPerIpPerMinute);

  // registration
  app.get(
    AccountPath.registerCheck,
    { schema: { tags, summary: 'Is a user name, email or phone still free', querystring: registerCheckQuery }, config: { permission: 'public', rateLimit: perMinute(60) } },
    async (request, reply) => {
      await checkRegistrationValue(app, request.query);
      return reply.ok(null, 'register.available');
    },
  );
  for (const [url, description] of [[AccountPath.register, undefined], [DeclaredPath.register, aliasOf('POST', AccountPath.register)]] as const) {
    app.post(
      url,
      { schema: { tags, summary: 'Register a normal user', ...(description ? { description } : {}), body: registerBody }, config: { permission: 'public', rateLimit: login } },
      async (request, reply) => {
        const result = await register(app, request.body);
        return reply.ok(result, result.awaitingApproval ? 'register.awaitingApproval' : 'register.ok');
      },
    );
  }
  app.get(
    AccountPath.loginSettings,
    { schema: { tags, summary: 'What the login page offers: the captcha, self-registration', querystring: loginSettingsQuery }, config: { permission: 'public', rateLimit: perMinute(120) } },
    async (request, reply) => reply.ok(await loginSettings(app, request.query.tenant)),
  );

  // SMS codes and phone login
  for (const [url, description] of [[AccountPath.sms, undefined], [DeclaredPath.sms, aliasOf('POST', AccountPath.sms)]] as const) {
    app.post(
      url,
      {
        schema: { tags, summary: 'Send an SMS verification code (smsmode 0 login, 1 registration, 2 password reset)', ...(description ? { description } : {}), body: smsBody },
        config: { permission: 'public', rateLimit: sms },
      },
      async (request, reply) => {
        await requestSmsCode(app, request.body, request.lang);
        return reply.ok(null, 'sms.sent');
      },
    );
  }
  app.post(
    AccountPath.phoneLogin,
    { schema: { tags, summary: 'Log in with a phone number and an SMS code', body: phoneLoginBody }, config: { permission: 'public', rateLimit: login } },
    async (request, reply) => {
      const result = await phoneLogin(app, request.body.mobile, request.body.captcha, request.ip, request.lang);
      return reply.ok(result, needsSecondFactor(result) ? 'login.secondFactorRequired' : 'login.ok');
    },
  );

  // password reset
  app.post(
    AccountPath.resetAccount,
    { schema: { tags, summary: 'Password reset step 1: the account', body: resetAccountBody }, config: { permission: 'public', rateLimit: login } },
    async (request, reply) => reply.ok(await resetFindAccount(app, request.body.username), 'reset.accountFound'),
  );
  app.post(
    AccountPath.resetSendCode,
    { schema: { tags, summary: "Password reset: send a code to the account's phone", body: resetSendCodeBody }, config: { permission: 'public', rateLimit: sms } },
    async (request, reply) => reply.ok(await resetSendCode(app, request.body, request.lang), 'sms.sent'),
  );
  app.post(
    AccountPath.resetVerify,
    { schema: { tags, summary: 'Password reset step 2: the SMS code', body: resetVerifyBody }, config: { permission: 'public', rateLimit: login } },
    async (request, reply) => reply.ok(await resetVerify(app, request.body.username, request.body.smscode), 'reset.verified'),
  );
  for (const [url, description] of [[AccountPath.resetPassword, undefined], [DeclaredPath.forgePassword, aliasOf('POST', AccountPath.resetPassword)]] as const) {
    app.post(
      url,
      { schema: { tags, summary: 'Password reset step 3: the new password', ...(description ? { description } : {}), body: resetPasswordBody }, config: { permission: 'public', rateLimit: login } },
      async (request, reply) => {
        await resetPassword(app, request.body);
        return reply.ok(null, 'reset.done');
      },
    );
  }

  // two-step verification
  app.get(
    AccountPath.twoFactorStatus,
    { schema: { tags, summary: 'Two-step verification of the caller' }, config: { permission: 'authenticated' } },
    async (request, reply) => reply.ok(await twoFactorStatus(app, callerOf(request).id)),
  );
  app.post(
    AccountPath.twoFactorEnroll,
    { schema: { tags, summary: 'Start enrolling an authenticator app' }, config: { permission: 'authenticated' } },
    async (request, reply) => reply.ok(await enroll(app, callerOf(request))),
  );
  app.post(
    AccountPath.twoFactorConfirm,
    { schema: { tags, summary: 'Confirm the authenticator with a code', body: twoFactorCodeBody }, config: { permission: 'authenticated', rateLimit: login } },
    async (request, reply) => {
      await confirmEnrollment(app, callerOf(request), request.body.code);
      return reply.ok(null, 'twoFactor.enrolled');
    },
  );
  app.post(
    AccountPath.twoFactorDisable,
    { schema: { tags, summary: 'Switch two-step verification off (needs a current code)', body: twoFactorCodeBody }, config: { permission: 'authenticated', rateLimit: login } },
    async (request, reply) => {
      await disable(app, callerOf(request), request.body.code);
      return reply.ok(null, 'twoFactor.disabled');
    },
  );
  app.post(
    AccountPath.twoFactorChallengeEnroll,
    { schema: { tags, summary: 'Enrol during a login that demands a second factor', body: twoFactorChallengeBody }, config: { permission: 'public', rateLimit: login } },
    async (request, reply) => reply.ok(await enrollDuringLogin(app, request.body.challenge)),
  );
  app.post(
    AccountPath.twoFactorLogin,
    { schema: { tags, summary: 'Complete a login with the 6-digit code', body: twoFactorLoginBody }, config: { permission: 'public', rateLimit: login } },
    async (request, reply) => reply.ok(await completeLogin(app, request.body.challenge, request.body.code, request.ip, request.lang), 'login.ok'),
  );

  // CAS single sign-on
  app.get(
    AccountPath.casValidate,
    { schema: { tags, summary: 'Validate a CAS ticket and start a session', querystring: casValidateQuery }, config: { permission: 'public', rateLimit: login } },
    async (request, reply) => {
      const result = await validateCasTicket(app, request.query.ticket, request.ip, request.lang);
      return reply.ok(result, needsSecondFactor(result) ? 'login.secondFactorRequired' : 'login.ok');
    },
  );

  // system activation and account settings
  app.get(
    AccountPath.activationStatus,
    { schema: { tags, summary: 'Is the system activated' }, config: { permission: 'public' } },
    async (_request, reply) => reply.ok({ ...(await activationStatus(app)), timeZone: app.settings.timeZone }),
  );
  app.post(
    AccountPath.activate,
    { schema: { tags, summary: 'Activate the system with a code', body: activateBody }, config: { permission: 'public', rateLimit: perMinute(10) } },
    async (request) => {
      const status = await activate(app, request.body.code);
      // the message reads the time as the result does: on the wire's clock (DESIGN section 5)
      const until = status.authorizedUntil ? formatWireTime(status.authorizedUntil, app.settings.timeZone) : '';
      return envelope(request.lang, 'ok', status, 'activation.done', { until });
    },
  );
  app.post(
    AccountPath.activationIssue,
    { schema: { tags, summary: 'Issue an activation code (system administrators)', body: activationIssueBody }, config: { permission: 'authenticated' } },
    async (request, reply) => {
      const caller = callerOf(request);
      await requireSystemAdmin(app, caller.id);
      return reply.ok(await issueActivationCode(app, request.body.days, caller.username), 'activation.issued');
    },
  );
  app.get(
    AccountPath.accountSettings,
    { schema: { tags, summary: 'Account security settings' }, config: { permission: 'authenticated' } },
    async (request, reply) => {
      await requireSystemAdmin(app, callerOf(request).id);
      return reply.ok(await readAccountSettings(app));
    },
  );
  app.put(
    AccountPath.accountSettings,
    { schema: { tags, summary: 'Change account security settings (system administrators)', body: accountSettingsBody }, config: { permission: 'authenticated' } },
    async (request, reply) => {
      const caller = callerOf(request);
      await requireSystemAdmin(app, caller.id);
      const { twoFactorForAdmins, activationRequired } = request.body;
      if (twoFactorForAdmins !== undefined) await writeSetting(app, SettingKey.twoFactorForAdmins, twoFactorForAdmins ? '1' : '0', caller.username);
      // requiring activation without a valid authorisation would lock every caller out at once
      if (activationRequired === true && !(await hasValidAuthorization(app))) refuse('activation.noAuthorization');
      if (activationRequired !== undefined) await writeSetting(app, SettingKey.activationRequired, activationRequired ? '1' : '0', caller.username);
      forgetActivationStatus();
      return reply.ok(await readAccountSettings(app), 'settings.saved');
    },
  );
};
