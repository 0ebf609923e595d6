import { idSchema, permissionCode, WEBHOOK_TEST_KIND, WebhookDeliveryStatus, webhookEntity, WebhookPath, type Page, type WebhookDeliveryRow } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { registerEntity, type CrudContext } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { checkWebhookUrl, RefusedAddress } from './url-guard.ts';
import { WEBHOOKS_CHANGED } from './plugin.ts';

const tags = ['webhook'];

const deliveriesQuery = z.object({
  id: idSchema,
  pageNo: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  status: z.enum(Object.values(WebhookDeliveryStatus) as [string, ...string[]]).optional(),
});

const idBody = z.object({ id: idSchema });
type IdBody = z.infer<typeof idBody>;

/** Where the URL leads, checked as it will be sent to; a refusal is the caller's localised error. */
async function checkTarget(url: string, allowLoopback: boolean): Promise<void> {
  try {
    await checkWebhookUrl(url, allowLoopback);
  } catch (error) {
    if (!(error instanceof RefusedAddress)) throw error;
    if (error.reason === 'scheme') throw new AppError('badRequest', 'error.validation', { message: 'http(s)' });
    refuse(error.reason === 'loopback' ? 'webhook.urlLoopback' : 'webhook.urlUnresolved', { host: error.host });
  }
}

/**
 * The webhook subscriptions of a tenant (`/sys/webhook/*`, the CRUD engine), their deliveries, "send again" and a
 * test event. The secret is kept encrypted and never answered; only a system administrator lets one reach the
 * console's own loopback, and a URL another user changes loses that leave.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = async () => {
    app.webhooks.forget();
    await app.eventBus.publish(WEBHOOKS_CHANGED, {});
  };
  registerEntity(app, webhookEntity, {
    beforeAdd: async ({ caller }: CrudContext, values) => {
      const allow = caller.systemAdmin && values.allowLoopback === 1;
      await checkTarget(String(values.url), allow);
      values.secret = app.secretBox.encrypt(String(values.secret));
    },
    beforeEdit: async ({ caller }: CrudContext, values, existing) => {
      const url = values.url !== undefined ? String(values.url) : String(existing.url);
      const urlChanged = url !== existing.url;
      // a leave to reach the loopback was given for the address it was given with
      if (!caller.systemAdmin && urlChanged && existing.allow_loopback === 1) values.allowLoopback = 0;
      const allow = (values.allowLoopback ?? existing.allow_loopback) === 1;
      if (urlChanged || values.allowLoopback !== undefined) await checkTarget(url, allow);
      if (typeof values.secret === 'string' && values.secret !== '') values.secret = app.secretBox.encrypt(values.secret);
      else delete values.secret;
    },
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_webhook_delivery').where('webhook_id', 'in', ids).execute();
    },
    afterChange: changed,
    routes: (routes, registered) => {
      routes.get(WebhookPath.deliveries, { schema: { tags, summary: 'A page of the deliveries of a webhook, newest first', querystring: deliveriesQuery }, config: { permission: permissionCode(webhookEntity, 'list') } }, async (request, reply) => {
        const { id, pageNo, pageSize, status } = request.query as z.infer<typeof deliveriesQuery>;
        if (!(await registered.findById(callerOf(request), id))) throw new AppError('notFound', 'webhook.notFound');
        const filtered = () => app.db.selectFrom('sys_webhook_delivery').where('webhook_id', '=', id).$call((q) => (status ? q.where('status', '=', status) : q));
        const total = Number((await filtered().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
        const rows = await filtered().selectAll().orderBy('seq', 'desc').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
        const records: WebhookDeliveryRow[] = rows.map((r) => ({
          id: r.id,
          seq: Number(r.seq),
          eventKind: r.event_kind,
          status: r.status as WebhookDeliveryRow['status'],
          attempts: r.attempts,
          nextAttemptTime: r.next_attempt_time,
          lastStatus: r.last_status,
          lastError: r.last_error,
          deliveredTime: r.delivered_time,
          createTime: r.create_time,
        }));
        const page: Page<WebhookDeliveryRow> = { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
        return reply.ok(page);
      });

      routes.post(WebhookPath.resend, { schema: { tags, summary: 'Queue a failed (or delivered) delivery again, in its place', body: idBody }, config: { permission: permissionCode(webhookEntity, 'resend') } }, async (request, reply) => {
        const delivery = await app.db.selectFrom('sys_webhook_delivery').select(['id', 'webhook_id', 'status']).where('id', '=', (request.body as IdBody).id).executeTakeFirst();
        if (!delivery || !(await registered.findById(callerOf(request), delivery.webhook_id))) throw new AppError('notFound', 'webhook.deliveryNotFound');
        const nowMs = app.clock();
        const now = new Date(nowMs).toISOString();
        const queued = await app.db
          .updateTable('sys_webhook_delivery')
          .set({ status: WebhookDeliveryStatus.pending, attempts: 0, next_attempt_time: now, give_up_time: new Date(nowMs + app.settings.webhooks.retryWindowMs).toISOString(), delivered_time: null, update_by: callerOf(request).username, update_time: now })
          .where('id', '=', delivery.id)
          .where('status', 'in', [WebhookDeliveryStatus.failed, WebhookDeliveryStatus.delivered])
          .executeTakeFirst();
        if (Number(queued.numUpdatedRows) !== 1) refuse('webhook.resendRefused');
        app.webhookWorker.poke();
        return reply.ok(null, 'webhook.resent');
      });

      routes.post(WebhookPath.test, { schema: { tags, summary: 'Queue a test event to a webhook', body: idBody }, config: { permission: permissionCode(webhookEntity, 'test') } }, async (request, reply) => {
        const caller = callerOf(request);
        const row = await registered.findById(caller, (request.body as IdBody).id);
        if (!row) throw new AppError('notFound', 'webhook.notFound');
        await app.webhooks.enqueue(app.db, row.tenant_id as string | null, [{ kind: WEBHOOK_TEST_KIND, time: app.clock(), data: { webhookId: row.id, name: row.name, by: caller.username } }], row.id as string);
        return reply.ok(null, 'webhook.testQueued');
      });
    },
  });
};
