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

  register(sender: SystemNoticeSender): void {
    this.sender = sender;
  }

  /** Delivers the notice; answers the message's id. */
  send(notice: SystemNotice): Promise<string> {
    if (!this.sender) return Promise.reject(new Error('no message center is registered'));
    return this.sender(notice);
  }
}
