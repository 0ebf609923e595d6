import type { Config } from '../../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text?: string;
  html?: string;
}

/** One mail over the configured SMTP server; rejects with the server's or the network's reason. */
export async function sendMail(smtp: Config['smtp'], mail: Mail): Promise<void> {
  if (!smtp.url) throw new Error('SMTP is not configured');
  // short timeouts: a test-send waits for the answer, and a dead server must fail the send, not hang the request
  const nodemailer = (await import('nodemailer')).default;
  const transport = nodemailer.createTransport({ url: smtp.url, connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 10_000 });
  try {
    await transport.sendMail({ from: smtp.from, ...mail });
  } finally {
    transport.close();
  }
}
