import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small CAS server for tests: answers `/cas/serviceValidate` for the tickets it was given, for one service. */
export interface CasResponder {
  /** the CAS server URL a console is configured with (CAS_SERVER_URL) */
  url: string;
  /** ticket → CAS user; any other ticket, or another service, gets an INVALID_TICKET failure */
  tickets: Map<string, string>;
  close: () => Promise<void>;
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startCasResponder(service: string): Promise<CasResponder> {
  const tickets = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cas');
    const user = url.pathname === '/cas/serviceValidate' && url.searchParams.get('service') === service ? tickets.get(url.searchParams.get('ticket') ?? '') : undefined;
    res.setHeader('content-type', 'application/xml');
    res.end(
      user
        ? `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>${escapeXml(user)}</cas:user></cas:authenticationSuccess></cas:serviceResponse>`
        : '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="INVALID_TICKET">Ticket not recognized</cas:authenticationFailure></cas:serviceResponse>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cas`,
    tickets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
