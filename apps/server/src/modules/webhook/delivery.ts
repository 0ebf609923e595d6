import { createHmac } from 'node:crypto';
import http from 'node:http';
import { isIP } from 'node:net';
import { WebhookHeader } from '@isps/contract';
import { withDeadline } from '../../platform/outbound.ts';
import { guardedLookup, hostOf, isOwnMachineAddress, RefusedAddress } from './url-guard.ts';

/** `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` keyed with the secret (the receiver computes the same). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface AttemptOutcome {
  ok: boolean;
  /** the receiver's HTTP status, null when none came */
  status: number | null;
  /** why it did not succeed (no receiver text beyond a short excerpt) */
  error: string | null;
}

/** How much of a receiver's answer is read (it only says whether the delivery was taken). */
const ANSWER_READ_BYTES = 4096;

/**
 * One attempt: POSTs the body, signed now, to the URL with node's own client (no redirect is ever followed), connecting
 * only to an address the guard lets through; a 2xx answer is success. Never throws.
 */
export async function attemptDelivery(target: { url: string; secret: string; allowLoopback: boolean }, delivery: { id: string; kind: string; body: string }, nowMs: number, timeoutMs: number): Promise<AttemptOutcome> {
  let url: URL;
  try {
    url = new URL(target.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddress('scheme', url.protocol);
    const host = hostOf(url);
    // a literal address is connected to without a lookup: checked here
    if (isIP(host) !== 0 && !target.allowLoopback && isOwnMachineAddress(host)) throw new RefusedAddress('loopback', host);
  } catch (error) {
    return { ok: false, status: null, error: error instanceof RefusedAddress ? error.message : 'invalid URL' };
  }
  const timestamp = Math.floor(nowMs / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'ISPS-Console-Webhook/1',
    [WebhookHeader.timestamp]: String(timestamp),
    [WebhookHeader.signature]: webhookSignature(target.secret, timestamp, delivery.body),
    [WebhookHeader.delivery]: delivery.id,
    [WebhookHeader.event]: delivery.kind,
  };
  try {
    // node's https (and with it tls) loads with the first https delivery, not with the server (build-server.test.ts)
    const client = url.protocol === 'https:' ? (await import('node:https')).default : http;
    return await withDeadline(timeoutMs, (signal) =>
      new Promise<AttemptOutcome>((resolve, reject) => {
        const request = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(delivery.body) }, signal, lookup: guardedLookup(target.allowLoopback) as never }, (response) => {
          const status = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let read = 0;
          const done = () => {
            const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ').trim();
            const ok = status >= 200 && status < 300;
            resolve({ ok, status, error: ok ? null : `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}` });
          };
          response.on('data', (chunk: Buffer) => {
            if (read >= ANSWER_READ_BYTES) return;
            chunks.push(chunk.subarray(0, ANSWER_READ_BYTES - read));
            read += chunk.length;
            if (read >= ANSWER_READ_BYTES) {
              response.destroy();
              done();
            }
          });
          response.on('end', done);
          response.on('error', () => done());
        });
        request.on('error', reject);
        request.end(delivery.body);
      }),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, status: null, error: message.slice(0, 300) };
  }
}
