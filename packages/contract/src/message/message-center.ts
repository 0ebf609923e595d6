/** The message center (SPEC sections 2, 3): sent messages and message templates with a test-send. */
import * as z from 'zod';

export const MessagePath = {
  list: '/sys/message/sysMessage/list',
  add: '/sys/message/sysMessage/add',
  edit: '/sys/message/sysMessage/edit',
  delete: '/sys/message/sysMessage/delete',
  deleteBatch: '/sys/message/sysMessage/deleteBatch',
  queryById: '/sys/message/sysMessage/queryById',
} as const;

export const MessageTemplatePath = {
  list: '/sys/message/sysMessageTemplate/list',
  add: '/sys/message/sysMessageTemplate/add',
  edit: '/sys/message/sysMessageTemplate/edit',
  delete: '/sys/message/sysMessageTemplate/delete',
  deleteBatch: '/sys/message/sysMessageTemplate/deleteBatch',
  queryById: '/sys/message/sysMessageTemplate/queryById',
  /** POST {templateCode, testData, receiver, msgType}: renders the template and sends it through a real channel */
  sendMsg: '/sys/message/sysMessageTemplate/sendMsg',
} as const;

/** Seeded under message/message and message/template. */
export const MessagePerm = {
  list: 'message:message:list',
  add: 'message:message:add',
  edit: 'message:message:edit',
  delete: 'message:message:delete',
  templateList: 'message:template:list',
  templateAdd: 'message:template:add',
  templateEdit: 'message:template:edit',
  templateDelete: 'message:template:delete',
  templateTestSend: 'message:template:testSend',
} as const;

/** Send channels: in-app (a system message in the recipient's bell, pushed over the socket) and e-mail over SMTP. */
export const SEND_TYPES = ['system', 'email'] as const;
export type SendType = (typeof SEND_TYPES)[number];

export const MessageSendStatus = { pending: '0', sent: '1', failed: '2' } as const;
export type MessageSendStatus = (typeof MessageSendStatus)[keyof typeof MessageSendStatus];

/** '1' plain text, '2' HTML (sanitised before it is shown or mailed). */
export const TEMPLATE_TYPES = ['1', '2'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** A message row: es* names as the origin console's screens read them. */
export interface SysMessage {
  id: string;
  /** title (the mail subject) */
  esTitle: string;
  esContent: string | null;
  /** the template parameters as a JSON object text */
  esParam: string | null;
  /** a user name (in-app) or an e-mail address */
  esReceiver: string;
  esType: SendType;
  esSendStatus: MessageSendStatus;
  esSendNum: number;
  /** why the last attempt failed; null when sent */
  esResult: string | null;
  esSendTime: string | null;
  remark: string | null;
  createBy: string | null;
  createTime: string | null;
}

export interface SysMessageTemplate {
  id: string;
  templateCode: string;
  templateName: string;
  /** text with ${name} placeholders */
  templateContent: string;
  templateType: TemplateType;
  /** sample parameters (JSON object text) the test-send form starts with */
  templateTestJson: string | null;
  createBy: string | null;
  createTime: string | null;
}

const page = {
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(10),
};

export const messageListQuery = z.object({
  ...page,
  esTitle: z.string().max(200).optional(),
  esReceiver: z.string().max(200).optional(),
  esType: z.enum(SEND_TYPES).optional(),
  esSendStatus: z.enum([MessageSendStatus.pending, MessageSendStatus.sent, MessageSendStatus.failed]).optional(),
});

export const templateListQuery = z.object({
  ...page,
  templateCode: z.string().max(100).optional(),
  templateName: z.string().max(200).optional(),
  templateType: z.enum(TEMPLATE_TYPES).optional(),
});

const jsonObjectText = z
  .string()
  .max(20_000)
  .refine((v) => {
    try {
      const parsed: unknown = JSON.parse(v);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }, { error: 'validation.illegalJson' });

export const messageInput = z.object({
  esTitle: z.string().trim().min(1).max(200),
  esContent: z.string().max(100_000).nullish(),
  esParam: jsonObjectText.nullish().or(z.literal('')),
  esReceiver: z.string().trim().min(1).max(200),
  esType: z.enum(SEND_TYPES),
  esSendStatus: z.enum([MessageSendStatus.pending, MessageSendStatus.sent, MessageSendStatus.failed]).optional(),
  remark: z.string().max(500).nullish(),
});
export const messageEditInput = messageInput.partial().extend({ id: z.string().min(1).max(64) });

export const templateInput = z.object({
  templateCode: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/),
  templateName: z.string().trim().min(1).max(200),
  templateContent: z.string().min(1).max(100_000),
  templateType: z.enum(TEMPLATE_TYPES).default('1'),
  templateTestJson: jsonObjectText.nullish().or(z.literal('')),
});
export const templateEditInput = templateInput.partial().extend({ id: z.string().min(1).max(64) });

export const sendMsgBody = z.object({
  templateCode: z.string().trim().min(1).max(100),
  /** parameters as a JSON object text (the origin console's form sends text) or an object */
  testData: z.union([jsonObjectText, z.record(z.string(), z.unknown())]).nullish(),
  receiver: z.string().trim().min(1).max(200),
  msgType: z.enum(SEND_TYPES),
});
export type SendMsgBody = z.infer<typeof sendMsgBody>;

/** Fills `${name}` placeholders; unknown names stay as they are. */
export function renderTemplate(template: string, params: Record<string, unknown>): string {
  return template.replace(/\$\{\s*([\w.-]+)\s*\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined || value === null ? whole : String(value);
  });
}
