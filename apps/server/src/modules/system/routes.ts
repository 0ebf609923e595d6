import * as z from 'zod';
import { ApiPath, DeclaredPath, ID_PATTERN, loginBody, needsSecondFactor, selectDepartBody, updatePasswordBody, userLanguageBody } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/access.ts';
import { AppError, JSON_CONTENT_TYPE, okEnvelopeJson, refuse } from '../../platform/envelope.ts';
import { dictOptionsJson, keptDictOptionsJson } from './dict-service.ts';
import { systemEntityRoutes } from './entity-routes.ts';
import { roleRoutes } from './role-routes.ts';
import { userRoutes } from './user-routes.ts';
import { departRoleRoutes } from './depart-role-routes.ts';
import { permissionRoutes } from './permission-routes.ts';
import { jobRoutes } from './job-routes.ts';
import { fileRoutes } from './file-routes.ts';
import { apiKeyRoutes } from './api-key-routes.ts';
import { issueCaptcha, login, logout, updateOwnPassword } from './login-service.ts';
import { permissionResultJson } from './permission-service.ts';
import { findActiveUserById, saveUserLanguage, setCurrentOrgCode, toUserInfo, userDeparts } from './user-service.ts';

const tags = ['system'];

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { rateLimit } = app.settings;

  app.get(
    ApiPath.randomImage,
    {
      schema: { tags, summary: 'Captcha image for a check key', params: z.object({ key: z.string().regex(ID_PATTERN) }) },
      config: { permission: 'public', rateLimit: { max: rateLimit.captchaPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => reply.ok(await issueCaptcha(app, request.params.key)),
  );

  app.post(
    ApiPath.login,
    {
      schema: { tags, summary: 'Log in with user name and password', body: loginBody },
      config: { permission: 'public', rateLimit: { max: rateLimit.loginPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const result = await login(app, request.body, request.ip, request.lang);
      return reply.ok(result, needsSecondFactor(result) ? 'login.secondFactorRequired' : 'login.ok');
    },
  );

  app.post(
    ApiPath.logout,
    { schema: { tags, summary: 'End this session' }, config: { permission: 'authenticated', allowWhilePasswordChangeDue: true } },
    async (request, reply) => {
      await logout(app, request.accessToken as string, callerOf(request), request.ip);
      return reply.ok(null, 'logout.ok');
    },
  );

  app.get(
    ApiPath.userPermission,
    { schema: { tags, summary: 'Menu tree and button permissions of the caller' }, config: { permission: 'authenticated', allowWhilePasswordChangeDue: true } },
    async (request, reply) => {
      const lang = request.lang;
      const result = await permissionResultJson(app, callerOf(request), lang, app.settings.timeZone);
      return reply.type(JSON_CONTENT_TYPE).send(okEnvelopeJson(lang, result));
    },
  );

  app.get(
    ApiPath.currentUserDeparts,
    { schema: { tags, summary: 'Groups of the caller and the current one' }, config: { permission: 'authenticated' } },
    async (request, reply) => {
      const caller = callerOf(request);
      const user = await findActiveUserById(app, caller.id);
      return reply.ok({ list: await userDeparts(app, caller.id), orgCode: user?.org_code ?? null });
    },
  );

  app.get(
    DeclaredPath.userInfo,
    {
      schema: { tags, summary: "The caller's userInfo", description: `Declared call of SPEC section 7: the userInfo of POST ${ApiPath.login}'s answer, for the caller of the token.` },
      config: { permission: 'authenticated' },
    },
    async (request, reply) => {
      const user = await findActiveUserById(app, callerOf(request).id);
      if (!user) throw new AppError('unauthorized', 'error.unauthorized');
      return reply.ok(toUserInfo(user, request.lang));
    },
  );

  app.post(
    ApiPath.selectDepart,
    { schema: { tags, summary: 'Choose the current group', body: selectDepartBody }, config: { permission: 'authenticated' } },
    async (request, reply) => {
      const caller = callerOf(request);
      const departs = await userDeparts(app, caller.id);
      if (!departs.some((d) => d.orgCode === request.body.orgCode)) refuse('depart.notMember');
      await setCurrentOrgCode(app, caller.id, request.body.orgCode, caller.username);
      const user = await findActiveUserById(app, caller.id);
      if (!user) refuse('depart.notMember');
      return reply.ok({ userInfo: toUserInfo(user, request.lang) }, 'depart.switched');
    },
  );

  // POST is ours; the origin console's password dialog sends PUT
  app.route({
    method: ['POST', 'PUT'],
    url: ApiPath.updatePassword,
    schema: { tags, summary: 'Change the own password', body: updatePasswordBody },
    config: { permission: 'authenticated', allowWhilePasswordChangeDue: true },
    handler: async (request, reply) => {
      await updateOwnPassword(app, callerOf(request), request.body);
      return reply.ok(null, 'password.changed');
    },
  });

  // the language switch of a signed-in user, also while a password change is due (that page has the switch too)
  app.put(
    ApiPath.userLanguage,
    { schema: { tags, summary: 'Keep the console language the caller chose', body: userLanguageBody }, config: { permission: 'authenticated', allowWhilePasswordChangeDue: true } },
    async (request, reply) => {
      await saveUserLanguage(app, callerOf(request).id, request.body.lang);
      return reply.ok(null);
    },
  );

  app.get(
    ApiPath.thirdAppEnabledType,
    { schema: { tags, summary: 'Which third-party logins are enabled (none: the console signs in by password, SMS code or CAS)' }, config: { permission: 'public' } },
    async (_request, reply) => reply.ok({ wechat_enterprise: false, dingtalk: false }),
  );

  app.get(
    ApiPath.dictItems,
    {
      schema: { tags, summary: 'Options of a dictionary', params: z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) }) },
      config: { permission: 'authenticated' },
    },
    // every select of every form asks this: the answer's result is kept serialised until the dictionaries change, and
    // a kept one is answered in the same turn (no promise to wait for), a missing one once it is read
    (request, reply) => {
      const { lang } = request;
      const send = (result: string) => reply.type(JSON_CONTENT_TYPE).send(okEnvelopeJson(lang, result));
      const kept = keptDictOptionsJson(app, request.params.code, lang, callerOf(request));
      if (kept !== undefined) {
        send(kept);
        return;
      }
      return dictOptionsJson(app, request.params.code, lang, callerOf(request)).then(send);
    },
  );

  await app.register(systemEntityRoutes);
  await app.register(roleRoutes);
  await app.register(userRoutes);
  await app.register(departRoleRoutes);
  await app.register(permissionRoutes);
  await app.register(jobRoutes);
  await app.register(fileRoutes);
  await app.register(apiKeyRoutes);
};
