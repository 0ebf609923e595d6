/**
 * api-dict: GET /sys/dict/getDictItems/{code} (every select of every form asks it) at 50 connections against a bare
 * node:http handler in the same process that serves the very same JSON from memory. Five rounds taken in turns (each
 * going first every other round); a round's ratio = console requests/s ÷ baseline requests/s of that round, and the
 * figure is the median round's, so that a busy moment of the machine weighs on the two it falls between, not on one
 * side of the figure. Target >= 0.6.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finish, load, report, startConsole } from './support.ts';
import { inTurns, median } from './start-support.ts';

const ROUNDS = 5;

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
  let failures = 0;
  const [ours, bare] = (await inTurns(ROUNDS, [
    async () => {
      const result = await load(urls[0] as string, headers, 3);
      failures += result.failures;
      return result.requestsPerSecond;
    },
    async () => (await load(urls[1] as string, headers, 3)).requestsPerSecond,
  ])) as [number[], number[]];
  if (process.env.BENCH_VERBOSE) console.log(`  console ${ours.map((r) => r.toFixed(0)).join(' ')}\n  bare ${bare.map((r) => r.toFixed(0)).join(' ')}`);
  const ratios = ours.map((rate, round) => rate / (bare[round] as number));
  const ratio = median(ratios);
  const round = ratios.indexOf(ratio);
  report('api-dict getDictItems', `${(ours[round] as number).toFixed(0)}req/s`, `${(bare[round] as number).toFixed(0)}req/s`, ratio, '>=0.6', ratio >= 0.6 && failures === 0);
  baseline.closeAllConnections();
  await new Promise((resolve) => baseline.close(resolve));
} finally {
  await bench.close();
}
finish();
