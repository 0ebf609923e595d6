import { SMTPServer } from 'smtp-server';

/** A mail the local SMTP server accepted: its envelope recipients and the raw message. */
export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A local SMTP server for tests: keeps what it receives and refuses the recipients it is told to. */
export interface LocalSmtp {
  port: number;
  /** the SMTP_URL a console is configured with */
  url: string;
  mails: ReceivedMail[];
  close: () => Promise<void>;
}

/** The answer to a refused recipient, as a mail server words it. */
export const REFUSED_RECIPIENT_REPLY = 'Mailbox unavailable';

export async function startSmtp(options: { refuse?: (address: string) => boolean } = {}): Promise<LocalSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuse?.(address.address)) return callback();
      const refusal = new Error(REFUSED_RECIPIENT_REPLY) as Error & { responseCode: number };
      refusal.responseCode = 550;
      callback(refusal);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
