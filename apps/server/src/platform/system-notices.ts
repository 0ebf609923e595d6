import type { Language, SendMsgBody } from '@isps/contract';
import type { CurrentUser } from './access.ts';

/** One in-app message of the message center to one user (released at once and pushed to their consoles). */
export interface SystemNotice {
  by: string;
  tenantId: string | null;
  userId: string;
  title: string;
  /** rich text, sanitised by the message center */
  html: string;
  /** what the message is about (a cabinet's id) */
  busId: string;
}

export type SystemNoticeSender = (notice: SystemNotice) => Promise<string>;

/** A message rendered from a template of the caller's tenant and sent through its channel (e-mail, in-app); `failure`: why it was not sent. */
export type TemplateMessageSender = (caller: CurrentUser, lang: Language, body: SendMsgBody) => Promise<{ failure: string | null }>;

declare module 'fastify' {
  interface FastifyInstance {
    systemNotices: SystemNotices;
  }
}

/**
 * The message center as other modules reach it: a module that tells users something (a cabinet allocation about to
 * end) sends here, and the message module, which owns the messages, registers how they are delivered. Decorated on
 * the root app, so a sweep started by any plugin reaches the sender the routes registered.
 */
export class SystemNotices {
  private sender: SystemNoticeSender | null = null;
  private templateSender: TemplateMessageSender | null = null;

  register(sender: SystemNoticeSender): void {
    this.sender = sender;
  }

  /** Delivers the notice; answers the message's id. */
  send(notice: SystemNotice): Promise<string> {
    if (!this.sender) return Promise.reject(new Error('no message center is registered'));
    return this.sender(notice);
  }

  registerTemplates(sender: TemplateMessageSender): void {
    this.templateSender = sender;
  }

  /** Sends a message through a template, as the message center's sendMsg does (and records it the same way). */
  sendTemplate(caller: CurrentUser, lang: Language, body: SendMsgBody): Promise<{ failure: string | null }> {
    if (!this.templateSender) return Promise.reject(new Error('no message center is registered'));
    return this.templateSender(caller, lang, body);
  }
}

/** Text as HTML that shows the same text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A notice's body: one paragraph of plain text. */
export const noticeParagraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
