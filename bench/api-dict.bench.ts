/**
 * api-dict: GET /sys/dict/getDictItems/{code} (every select of every form asks it) at 50 connections against a bare
 * node:http handler in the same process that serves the very same JSON from memory. Ratio = console requests/s ÷
 * baseline requests/s (medians of three rounds taken in turns, each going first every other round, so that a busy
 * moment of the machine weighs on both alike); target >= 0.6.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finish, load, report, startConsole } from './support.ts';
import { median } from './start-support.ts';

const ROUNDS = 3;

const PATH = '/api/sys/dict/getDictItems/sex';
const bench = await startConsole('sqlite');
try {
  const headers = { 'X-Access-Token': bench.token, lang: 'en-US' };
  const body = (await bench.app.inject({ method: 'GET', url: PATH, headers })).body;
  const baseline = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const urls = [bench.url + PATH, `http://127.0.0.1:${(baseline.address() as AddressInfo).port}${PATH}`];
  const rates: number[][] = [[], []];
  let failures = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const result = await load(urls[i] as string, headers, 3);
      (rates[i] as number[]).push(result.requestsPerSecond);
      if (i === 0) failures += result.failures;
    }
  }
  if (process.env.BENCH_VERBOSE) console.log(`  console ${rates[0]?.map((r) => r.toFixed(0)).join(' ')}\n  bare ${rates[1]?.map((r) => r.toFixed(0)).join(' ')}`);
  const ours = median(rates[0] as number[]);
  const bare = median(rates[1] as number[]);
  const ratio = ours / bare;
  report('api-dict getDictItems', `${ours.toFixed(0)}req/s`, `${bare.toFixed(0)}req/s`, ratio, '>=0.6', ratio >= 0.6 && failures === 0);
  baseline.closeAllConnections();
  await new Promise((resolve) => baseline.close(resolve));
} finally {
  await bench.close();
}
finish();
