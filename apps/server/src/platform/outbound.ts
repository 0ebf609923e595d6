/**
 * One deadline for the whole call (connect, headers and body): a server that accepts and never answers costs the
 * caller no more than `timeoutMs`, the same as a closed port.
 */
export async function withDeadline<T>(timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error('outbound call timed out'));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** GETs a text answer (at most 100,000 characters); throws on any failure, a non-2xx answer or the deadline. */
export function fetchText(url: string, timeoutMs: number): Promise<string> {
  return withDeadline(timeoutMs, async (signal) => {
    // a redirect would aim the call at an address nobody configured
    const response = await fetch(url, { signal, redirect: 'error', headers: { accept: 'application/xml, text/xml' } });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    return (await response.text()).slice(0, 100_000);
  });
}

/** POSTs JSON; throws on any failure, a non-2xx answer or the deadline. */
export function postJson(url: string, body: unknown, timeoutMs: number): Promise<void> {
  return withDeadline(timeoutMs, async (signal) => {
    const response = await fetch(url, { method: 'POST', signal, redirect: 'error', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`answered ${response.status}`);
  });
}

