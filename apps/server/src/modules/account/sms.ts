import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { postJson } from '../../platform/outbound.ts';

export interface SmsMessage {
  phone: string;
  text: string;
  /** the bare code, for providers that fill their own template */
  code: string;
}

/** Where verification codes go. Implementations throw when the message could not be handed over. */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

/** Single-box installs without an SMS gateway: the operator reads the code from the server log. */
export class LogSmsProvider implements SmsProvider {
  readonly name = 'log';
  constructor(private readonly log: Pick<FastifyBaseLogger, 'info'>) {}

  async send(message: SmsMessage): Promise<void> {
    this.log.info({ sms: { phone: message.phone, code: message.code } }, `SMS to ${message.phone}: ${message.text}`);
  }
}

/** POSTs `{ phone, text, code }` as JSON to SMS_WEBHOOK_URL; any 2xx answer counts as handed over. */
export class WebhookSmsProvider implements SmsProvider {
  readonly name = 'webhook';
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 5000,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    await postJson(this.url, { phone: message.phone, text: message.text, code: message.code }, this.timeoutMs);
  }
}

export function createSmsProvider(config: Config, log: FastifyBaseLogger): SmsProvider {
  if (config.sms.provider === 'webhook' && config.sms.webhookUrl) return new WebhookSmsProvider(config.sms.webhookUrl, config.outboundTimeoutMs);
  return new LogSmsProvider(log);
}

/** The provider in use; tests swap it for a recorder. */
export class SmsGateway {
  constructor(public provider: SmsProvider) {}
  send(message: SmsMessage): Promise<void> {
    return this.provider.send(message);
  }
}
