import {
  addressBookEntity,
  ApiPath,
  categoryEntity,
  checkRuleEntity,
  checkRuleSetSchema,
  dataLogEntity,
  DataLogPath,
  dataSourceEntity,
  dictEntity,
  dictItemEntity,
  fillRuleEntity,
  ID_PATTERN,
  logEntity,
  permissionCode,
  positionEntity,
  runCheckRules,
  splitIds,
  tenantEntity,
  vendorEntity,
  type DataLogVersion,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { duplicateCheckRoutes, entityOfTable, offerValues, registerEntity, type CrudContext, type RegisteredEntity } from '../../platform/crud/index.ts';
import { pagingOf, type Query } from '../../platform/crud/query.ts';
import { escapeLike, likeEscaped } from './like-pattern.ts';
import { toApiRow } from '../../platform/crud/values.ts';
import { dictionaryOptions, refreshDictionaries } from '../../platform/dictionaries.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { dataSourceKinds, testDataSourceConnection } from './data-source-service.ts';
import { generateFillValue, fillParamsProblem } from './fill-rule-service.ts';
import { showLogRow } from './log-view.ts';
import { showSeededRows } from '../../platform/seeded-texts.ts';

const tags = ['system'];

/** Calls of the origin console on these screens beyond the generic ones. */
const OriginPath = {
  /** GET ?dictId=&itemValue=&id= : refused while another item of the dictionary holds the value */
  dictItemCheck: '/sys/dictItem/dictItemCheck',
  /** GET ?ids= : enabled tenants */
  tenantQueryList: ApiPath.tenantQueryList,
  /** GET: a page of the root categories, each with `hasChild` ('1' or '0') */
  categoryRootList: '/sys/category/rootList',
} as const;

function endAfterBegin(values: Record<string, unknown>, existing?: Record<string, unknown>) {
  const begin = values.beginDate !== undefined ? values.beginDate : existing?.begin_date;
  const end = values.endDate !== undefined ? values.endDate : existing?.end_date;
  if (typeof begin === 'string' && typeof end === 'string' && end <= begin) throw new AppError('badRequest', 'validation.endBeforeStart');
}

function checkFillParams({ lang }: CrudContext, values: Record<string, unknown>, existing?: Record<string, unknown>) {
  const implementation = (values.ruleClass ?? existing?.rule_class) as string;
  const params = values.ruleParams !== undefined ? values.ruleParams : existing?.rule_params;
  const problem = fillParamsProblem(lang, implementation, typeof params === 'string' ? params : null);
  if (problem) throw new AppError('badRequest', 'error.validation', { message: problem });
}

/** The system screens that are plain declarations, with the few behaviours they add beside them. */
export const systemEntityRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, positionEntity);
  registerEntity(app, vendorEntity);
  registerEntity(app, categoryEntity, { routes: (routes, registered) => categoryRootListRoute(routes, registered) });
  registerEntity(app, addressBookEntity);
  registerEntity(app, logEntity, { shown: showLogRow });
  registerEntity(app, dataLogEntity, {
    routes: (routes, registered) => {
      routes.get(
        DataLogPath.compare,
        {
          schema: { tags, summary: 'Two versions of a record, side by side', querystring: z.object({ dataId1: z.string().regex(ID_PATTERN), dataId2: z.string().regex(ID_PATTERN) }) },
          config: { permission: permissionCode(dataLogEntity, 'compare') },
        },
        async (request, reply) => {
          const { dataId1, dataId2 } = request.query as { dataId1: string; dataId2: string };
          const rows = await registered.scoped(callerOf(request)).where('id', 'in', [dataId1, dataId2]).execute();
          const [a, b] = [dataId1, dataId2].map((id) => rows.find((r) => r.id === id));
          if (!a || !b || a.data_table !== b.data_table || a.data_id !== b.data_id) refuse('dataLog.compareTwo');
          const version = (row: Record<string, unknown>): DataLogVersion => ({
            id: String(row.id),
            dataTable: String(row.data_table),
            entity: entityOfTable(String(row.data_table)),
            dataId: String(row.data_id),
            dataVersion: Number(row.data_version),
            createBy: (row.create_by as string | null) ?? null,
            createTime: (row.create_time as string | null) ?? null,
            content: JSON.parse(String(row.data_content)) as Record<string, unknown>,
          });
          return reply.ok([version(a), version(b)].sort((x, y) => x.dataVersion - y.dataVersion));
        },
      );
    },
  });
  // the tenants are the options of the tenant dictionary: like any dictionary change, a committed write to them
  // makes the kept options stale (platform/dictionaries.ts)
  registerEntity(app, tenantEntity, {
    beforeAdd: (_ctx, values) => endAfterBegin(values),
    beforeEdit: (_ctx, values, existing) => endAfterBegin(values, existing),
    routes: (routes) => {
      // the origin console's user form lists the enabled tenants (`ids` narrows them); like the tenant dictionary,
      // only a system administrator sees every tenant, anyone else their own
      const query = z.object({ ids: z.string().max(70_000).optional() });
      routes.get(OriginPath.tenantQueryList, { schema: { tags, summary: 'Enabled tenants, for selectors', querystring: query }, config: { permission: 'authenticated' } }, async (request, reply) => {
        const caller = callerOf(request);
        const ids = splitIds((request.query as z.infer<typeof query>).ids).filter((id) => ID_PATTERN.test(id));
        let rows = app.db.selectFrom('sys_tenant').selectAll().where('status', '=', 1);
        if (ids.length > 0) rows = rows.where('id', 'in', ids);
        if (!caller.systemAdmin) rows = caller.tenantId === null ? rows.where(sql<boolean>`1 = 0`) : rows.where('id', '=', caller.tenantId);
        return reply.ok((await showSeededRows(app, 'tenant', await rows.orderBy('name').orderBy('id').limit(5000).execute(), request.lang)).map((r) => toApiRow(tenantEntity, r)));
      });
    },
  });

  registerEntity(app, dictEntity, {
    beforeDelete: async ({ app: a }, rows, complete) => {
      if (complete) await a.db.deleteFrom('sys_dict_item').where('dict_id', 'in', rows.map((r) => r.id as string)).execute();
    },
    routes: (routes) => {
      routes.get(ApiPath.dictRefreshCache, { schema: { tags, summary: 'Reload the dictionary cache' }, config: { permission: permissionCode(dictEntity, 'refreshCache') } }, async (_request, reply) => {
        await refreshDictionaries(app);
        return reply.ok(null, 'dict.cacheRefreshed');
      });
    },
  });
  registerEntity(app, dictItemEntity, {
    beforeAdd: async ({ app: a }, values) => {
      const dict = await a.db.selectFrom('sys_dict').select('id').where('id', '=', String(values.dictId)).executeTakeFirst();
      if (!dict) throw new AppError('badRequest', 'validation.parentMissing');
    },
    beforeEdit: (_ctx, values) => {
      // an item stays in its dictionary
      delete values.dictId;
    },
    routes: (routes) => {
      // the origin console's item form checks a value while it is typed: free in its dictionary (other than the item edited)
      const query = z.object({ dictId: z.string().regex(ID_PATTERN), itemValue: z.string().max(100), id: z.string().regex(ID_PATTERN).optional().or(z.literal('')) });
      routes.get(OriginPath.dictItemCheck, { schema: { tags, summary: 'Is an item value still free in its dictionary', querystring: query }, config: { permission: permissionCode(dictItemEntity, 'list') } }, async (request, reply) => {
        const { dictId, itemValue, id } = request.query as z.infer<typeof query>;
        let holder = app.db.selectFrom('sys_dict_item').select('id').where('dict_id', '=', dictId).where('item_value', '=', itemValue);
        if (id) holder = holder.where('id', '<>', id);
        if (await holder.executeTakeFirst()) refuse('duplicate.dictItemValue');
        return reply.ok(null, 'duplicate.available');
      });
    },
  });

  const parseJson = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  };
  registerEntity(app, checkRuleEntity, {
    routes: (routes) => {
      const query = z.object({ ruleCode: z.string().max(100).optional(), value: z.string().max(1000).optional() });
      routes.get(ApiPath.checkRuleByCode, { schema: { tags, summary: 'Check a value against a check rule', querystring: query }, config: { permission: 'authenticated' } }, async (request, reply) => {
        const { ruleCode, value } = request.query as z.infer<typeof query>;
        // SPEC section 5: an empty rule code or value is not checked
        if (!ruleCode || !value) return reply.ok(null, 'checkRule.passed');
        const rule = await app.db.selectFrom('sys_check_rule').select('rule_json').where('rule_code', '=', ruleCode).executeTakeFirst();
        if (!rule) refuse('checkRule.notFound', { code: ruleCode });
        const rules = checkRuleSetSchema.safeParse(parseJson(rule.rule_json));
        // a rule stored before patterns were checked as they are now cannot be run: refused, not a server error
        if (!rules.success) refuse('checkRule.tooComplex');
        const outcome = runCheckRules(rules.data, value);
        if (!outcome.passed) refuse(outcome.tooComplex ? 'checkRule.tooComplex' : 'checkRule.failed', { message: outcome.message });
        return reply.ok(null, 'checkRule.passed');
      });
    },
  });

  registerEntity(app, fillRuleEntity, {
    beforeAdd: (ctx, values) => checkFillParams(ctx, values),
    beforeEdit: (ctx, values, existing) => checkFillParams(ctx, values, existing),
    routes: (routes) => {
      routes.get(ApiPath.fillRuleExecute, { schema: { tags, summary: 'Generate a value with a fill rule', params: z.object({ code: z.string().min(1).max(100) }) }, config: { permission: 'authenticated' } }, async (request, reply) => {
        const { code } = request.params as { code: string };
        const rule = await app.db.selectFrom('sys_fill_rule').select(['rule_class', 'rule_params']).where('rule_code', '=', code).executeTakeFirst();
        if (!rule) refuse('fillRule.notFound', { code });
        const value = generateFillValue(rule.rule_class, rule.rule_params, app.clock());
        if (value === null) refuse('fillRule.notFound', { code });
        return reply.ok(value);
      });
    },
  });

  registerEntity(app, dataSourceEntity, {
    beforeAdd: ({ app: a }, values) => {
      values.dbDriver = driverOf(values.dbType);
      values.dbPassword = typeof values.dbPassword === 'string' && values.dbPassword !== '' ? a.secretBox.encrypt(values.dbPassword) : null;
    },
    beforeEdit: ({ app: a }, values, existing) => {
      if (values.dbType !== undefined) values.dbDriver = driverOf(values.dbType);
      if (typeof values.dbPassword === 'string' && values.dbPassword !== '') {
        values.dbPassword = a.secretBox.encrypt(values.dbPassword);
        return;
      }
      // the stored password never follows a source to another address: moving it needs the password again
      const moved = addressFields.some(
        ([field, column]) => values[field] !== undefined && ((values[field] as string | null) ?? '') !== ((existing[column] as string | null) ?? ''),
      );
      if (moved && existing.db_password) refuse('dataSource.passwordRequired');
    },
    routes: (routes) => {
      dataSourceTestRoute(app, routes);
      const kinds = offerValues(ApiPath.dataSourceKinds, dataSourceKinds);
      routes.get(ApiPath.dataSourceKinds, { schema: { tags, summary: 'The database kinds the server connects to' }, config: { permission: permissionCode(dataSourceEntity, 'list') } }, async (request, reply) => {
        const texts = await dictionaryOptions(app, 'database_type', request.lang);
        return reply.ok(kinds.map((kind) => ({ value: kind.value, text: texts.find((o) => o.value === kind.value)?.text ?? kind.value, driver: kind.driver })));
      });
    },
  });

  await app.register(duplicateCheckRoutes);
};

/** The origin's category screen lists the roots a page at a time and opens a root's children on demand. */
function categoryRootListRoute(routes: FastifyInstance, registered: RegisteredEntity) {
  routes.get(OriginPath.categoryRootList, { schema: { tags, summary: 'A page of the root categories' }, config: { permission: permissionCode(categoryEntity, 'list') } }, async (request, reply) => {
    const query = request.query as Query;
    // the origin's search box sends `*x*` (contains) or a plain text
    const text = (value: unknown) => (typeof value === 'string' && value.replace(/^\*|\*$/g, '').trim() !== '' ? value.replace(/^\*|\*$/g, '').trim() : undefined);
    const { pageNo, pageSize } = pagingOf(query);
    const roots = () =>
      registered
        .scoped(callerOf(request))
        .where((eb) => eb.or([eb('pid', 'is', null), eb('pid', '=', ''), eb('pid', '=', '0')]))
        .$call((q) => (text(query.name) ? q.where(likeEscaped('name', `%${escapeLike(text(query.name) as string)}%`)) : q))
        .$call((q) => (text(query.code) ? q.where(likeEscaped('code', `%${escapeLike(text(query.code) as string)}%`)) : q));
    const total = Number((await roots().clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await roots().orderBy('code').orderBy('id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    const parents = rows.length === 0 ? new Set<string>() : new Set((await registered.scoped(callerOf(request)).clearSelect().select('pid').where('pid', 'in', rows.map((r) => r.id as string)).execute()).map((r) => r.pid as string));
    const records = rows.map((r) => ({ ...toApiRow(categoryEntity, r), hasChild: parents.has(r.id as string) ? '1' : '0' }));
    return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
  });
}

const testBody = z.object({
  id: z.string().max(64).optional(),
  dbType: z.string().max(100),
  dbUrl: z.string().max(500),
  dbName: z.string().max(100).nullish(),
  dbUsername: z.string().max(100).nullish(),
  dbPassword: z.string().max(200).nullish(),
  dbDriver: z.string().max(100).nullish(),
});

/** The fields that say where a test connects: changing any of them needs the password again. */
/** The driver the server uses for a database kind (dbDriver is never typed: it follows dbType). */
function driverOf(dbType: unknown): string | null {
  return dataSourceKinds.find((kind) => kind.value === dbType)?.driver ?? null;
}

const addressFields = [
  ['dbType', 'db_type'],
  ['dbUrl', 'db_url'],
  ['dbName', 'db_name'],
  ['dbUsername', 'db_username'],
] as const;

function dataSourceTestRoute(app: FastifyInstance, routes: FastifyInstance) {
  routes.post(ApiPath.dataSourceTest, { schema: { tags, summary: 'Try to connect with data-source settings (system administrators)', body: testBody }, config: { permission: permissionCode(dataSourceEntity, 'test') } }, async (request, reply) => {
    // the server connects where the caller says: only system administrators may aim it
    if (!callerOf(request).systemAdmin) throw new AppError('forbidden', 'error.forbidden', { code: 'admin' });
    const body = request.body as z.infer<typeof testBody>;
    let settings = { dbType: body.dbType, dbUrl: body.dbUrl, dbName: body.dbName || null, user: body.dbUsername ?? '', password: body.dbPassword ?? '' };
    if (!settings.password && body.id) {
      // the stored password goes only to the stored address: a changed address must carry the password again
      const stored = await app.db.selectFrom('sys_data_source').selectAll().where('id', '=', body.id).executeTakeFirst();
      if (stored?.db_password) {
        const changed = addressFields.some(([given, column]) => (body[given] ?? '') !== ((stored[column] as string | null) ?? ''));
        if (changed) refuse('dataSource.passwordRequired');
        settings = { dbType: stored.db_type, dbUrl: stored.db_url, dbName: stored.db_name, user: stored.db_username ?? '', password: app.secretBox.decrypt(stored.db_password) };
      }
    }
    const outcome = await testDataSourceConnection(settings, app.settings.outboundTimeoutMs, (error) => request.log.info({ err: error }, 'data-source test failed'));
    if (outcome === 'unsupported') refuse('dataSource.unsupportedType');
    if (outcome !== 'ok') refuse('dataSource.connectionFailed');
    return reply.ok(null, 'dataSource.connectionSuccess');
  });
}
