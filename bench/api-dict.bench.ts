/**
 * api-dict: GET /sys/dict/getDictItems/{code} (every select of every form asks it) at 50 connections against a bare
 * node:http handler in the same process that serves the very same JSON from memory. Ratio = console requests/s ÷
 * baseline requests/s; target >= 0.6.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finish, load, report, startConsole } from './support.ts';

const PATH = '/api/sys/dict/getDictItems/sex';
const bench = await startConsole('sqlite');
try {
  const headers = { 'X-Access-Token': bench.token, lang: 'en-US' };
  const body = (await bench.app.inject({ method: 'GET', url: PATH, headers })).body;
  const baseline = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const ours = await load(bench.url + PATH, headers);
  const bare = await load(`http://127.0.0.1:${(baseline.address() as AddressInfo).port}${PATH}`, headers);
  const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
  report('api-dict getDictItems', `${ours.requestsPerSecond.toFixed(0)}req/s`, `${bare.requestsPerSecond.toFixed(0)}req/s`, ratio, '>=0.6', ratio >= 0.6 && ours.failures === 0);
  baseline.closeAllConnections();
  await new Promise((resolve) => baseline.close(resolve));
} finally {
  await bench.close();
}
finish();
