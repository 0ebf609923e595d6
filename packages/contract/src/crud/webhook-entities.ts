import * as z from 'zod';
import { WEBHOOK_EVENT_KINDS, WebhookPath } from '../webhook.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, textSchema } from './fields.ts';

/** A receiver's address: http(s) only (where it may point is the server's check, at saving and at each attempt). */
const webhookUrlSchema = textSchema(500).regex(/^https?:\/\/[^\s/?#]+/i, { error: 'validation.webhookUrl' });
/** The kinds it is sent, joined by commas: at least one, each a known kind. */
const webhookEventsSchema = z
  .string()
  .max(500)
  .refine((value) => {
    const kinds = value.split(',').map((k) => k.trim()).filter(Boolean);
    return kinds.length > 0 && kinds.every((k) => (WEBHOOK_EVENT_KINDS as readonly string[]).includes(k));
  }, { error: 'validation.webhookEvents' });

/** Webhook subscriptions of a tenant (issue 32): the secret is write-only, loopback targets need a system administrator. */
export const webhookEntity: EntityDeclaration = {
  name: 'webhook',
  title: 'webhook.title',
  basePath: '/sys/webhook',
  permissionPrefix: 'system:webhook',
  component: 'system/webhook',
  labelField: 'name',
  fields: {
    name: field.text('webhook.field.name', 100, { required: true }),
    url: { label: 'webhook.field.url', kind: 'string', schema: webhookUrlSchema, widget: { kind: 'input' }, required: true },
    events: {
      label: 'webhook.field.events',
      kind: 'string',
      schema: webhookEventsSchema,
      widget: { kind: 'options', options: WEBHOOK_EVENT_KINDS.map((kind) => ({ value: kind, label: `webhook.event.${kind}` })), multiple: true },
      required: true,
    },
    // the HMAC key: given once (the form offers a generated one), kept encrypted, never answered
    secret: field.password('webhook.field.secret', 200, { required: true, schema: z.string().min(16, { error: 'validation.webhookSecret' }).max(200) }),
    enabled: field.integer('webhook.field.enabled', 0, 1, { widget: { kind: 'switch' }, defaultValue: 1 }),
    // the console's own loopback (tests, a receiver on the same machine): a system administrator's decision
    allowLoopback: field.integer('webhook.field.allowLoopback', 0, 1, { widget: { kind: 'switch' }, defaultValue: 0, systemAdminOnly: true }),
    lastStatus: field.text('webhook.field.lastStatus', 16, { readOnly: true, widget: { kind: 'options', options: ['delivered', 'retrying', 'failed'].map((s) => ({ value: s, label: `webhook.status.${s}` })) } }),
    lastError: field.text('webhook.field.lastError', 500, { readOnly: true }),
    lastTime: field.datetime('webhook.field.lastTime', { readOnly: true }),
  },
  columns: ['name', 'url', 'events', 'enabled', 'allowLoopback', 'lastStatus', 'lastTime', 'createTime'],
  detailFields: ['lastError'],
  search: { name: 'contains', url: 'contains', enabled: 'exact' },
  sortable: ['name', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  tenantScoped: true,
  actions: ['list', 'add', 'edit', 'delete'],
  extraActions: ['resend', 'test'],
  rowCommands: [{ name: 'test', label: 'webhook.sendTest', method: 'POST', path: WebhookPath.test }],
};

export const webhookEntities: readonly EntityDeclaration[] = [webhookEntity];

/** Texts of the webhook screen, merged into `entityLabels`. */
export const webhookLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'webhook.title': ['Webhooks', 'Webhook 订阅', 'Webhook'],
  'webhook.field.name': ['Name', '名称', '名前'],
  'webhook.field.url': ['Receiver URL', '接收地址', '受信 URL'],
  'webhook.field.events': ['Events', '事件', 'イベント'],
  'webhook.field.secret': ['Signing secret', '签名密钥', '署名シークレット'],
  'webhook.field.enabled': ['Enabled', '启用', '有効'],
  'webhook.field.allowLoopback': ['Allow loopback address', '允许本机回环地址', 'ループバックアドレスを許可'],
  'webhook.field.lastStatus': ['Last delivery', '最近投递', '直近の配信'],
  'webhook.field.lastError': ['Last error', '最近错误', '直近のエラー'],
  'webhook.field.lastTime': ['Last attempt', '最近尝试时间', '直近の試行日時'],
  'webhook.event.opening': ['Door opened', '开门', '解錠'],
  'webhook.event.denial': ['Access denied', '拒绝通行', '通行拒否'],
  'webhook.event.alarm': ['Device alarm', '设备报警', 'デバイス警報'],
  'webhook.event.deviceOnline': ['Device online', '设备上线', 'デバイス接続'],
  'webhook.event.deviceOffline': ['Device offline', '设备离线', 'デバイス切断'],
  'webhook.event.emergencyStart': ['Emergency started', '应急开始', '緊急事態開始'],
  'webhook.event.emergencyEnd': ['Emergency ended', '应急结束', '緊急事態終了'],
  'webhook.event.visitorArrival': ['Visitor arrived', '访客到达', '来訪者到着'],
  'webhook.event.test': ['Test event', '测试事件', 'テストイベント'],
  'webhook.status.delivered': ['Delivered', '已送达', '配信済み'],
  'webhook.status.retrying': ['Retrying', '重试中', '再試行中'],
  'webhook.status.failed': ['Failed', '失败', '失敗'],
  'webhook.status.pending': ['Waiting', '等待中', '待機中'],
  'webhook.status.sending': ['Sending', '发送中', '送信中'],
  'webhook.sendTest': ['Send a test event', '发送测试事件', 'テストイベントを送信'],
  'webhook.deliveries': ['Deliveries', '投递记录', '配信履歴'],
  'webhook.deliveriesTitle': ['Deliveries of {{name}}', '{{name}} 的投递记录', '{{name}} の配信履歴'],
  'webhook.resend': ['Send again', '重新发送', '再送信'],
  'webhook.delivery.seq': ['No.', '序号', '番号'],
  'webhook.delivery.eventKind': ['Event', '事件', 'イベント'],
  'webhook.delivery.status': ['Status', '状态', '状態'],
  'webhook.delivery.attempts': ['Attempts', '尝试次数', '試行回数'],
  'webhook.delivery.lastStatus': ['HTTP status', 'HTTP 状态码', 'HTTP ステータス'],
  'webhook.delivery.lastError': ['Error', '错误', 'エラー'],
  'webhook.delivery.nextAttemptTime': ['Next attempt', '下次尝试', '次回の試行'],
  'webhook.delivery.deliveredTime': ['Delivered at', '送达时间', '配信日時'],
  'webhook.generateSecret': ['Generate', '生成', '生成'],
  'webhook.secretShownOnce': ['Copy this secret now: it is never shown again.', '请立即复制此密钥：之后不会再显示。', 'このシークレットを今すぐコピーしてください。再表示されません。'],
};
