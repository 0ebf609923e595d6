/**
 * api-list: user and position lists (page 1, page 500, a contains filter, a sort) over 100,000 rows each, 50
 * connections, on SQLite and (when it answers) PostgreSQL. Baseline: a bare node:http handler in the same process
 * that does what any list must: the same token lookup, the very SQL the console runs for that request when nothing is
 * cached (captured with the list read cache emptied) through the same driver, and the envelope. Ratio = console requests/s ÷ baseline requests/s; target >= 0.6, and
 * p99 <= 50 ms on SQLite. Every run, warm-up included, starts once the server has answered each request the run before it left
 * in flight (console and baseline alike), so each figure measures its own scenario only.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CompiledQuery } from 'kysely';
import { finish, inFlight, load, postgresReachable, report, seedRows, startConsole, statementsOf } from './support.ts';

const ROWS = 100_000;
const SCENARIOS = [
  ['users page 1', '/api/sys/user/list?pageNo=1&pageSize=10'],
  ['users page 500', '/api/sys/user/list?pageNo=500&pageSize=10'],
  ['users contains', '/api/sys/user/list?pageNo=1&pageSize=10&realname=*Chen 12*'],
  ['users sorted', '/api/sys/user/list?pageNo=3&pageSize=10&column=username&order=asc'],
  ['positions page 1', '/api/sys/position/list?pageNo=1&pageSize=10'],
  ['positions page 500', '/api/sys/position/list?pageNo=500&pageSize=10'],
  ['positions contains', '/api/sys/position/list?pageNo=1&pageSize=10&name=*post 12*'],
  ['positions sorted', '/api/sys/position/list?pageNo=3&pageSize=10&column=code&order=asc'],
] as const;

for (const dialect of ['sqlite', ...((await postgresReachable()) ? ['postgres' as const] : [])] as const) {
  const bench = await startConsole(dialect);
  try {
    await seedRows(bench.app, bench.tenantId, ROWS);
    const headers = { 'X-Access-Token': bench.token };

    // the statements each list request runs, captured from the console itself once its caches are warm
    const replay = new Map<string, CompiledQuery[]>();
    for (const [, path] of SCENARIOS) {
      await bench.app.inject({ method: 'GET', url: path, headers });
      // the SQL a list must run: the console's list read cache would answer a warm page without any
      bench.app.listCache.clear();
      const statements = await statementsOf(bench.app, () => bench.app.inject({ method: 'GET', url: path, headers }));
      replay.set(path, statements);
    }

    const baseline = createServer(async (request, response) => {
      const token = request.headers['x-access-token'];
      try {
        // the load generator sends the filter's space as %20: the replayed SQL is kept under the path as written above
        await answer(String(token), decodeURI(request.url ?? ''), response);
      } catch {
        response.writeHead(500).end();
      }
    });
    const answer = async (token: string, url: string, response: ServerResponse) => {
      const session = await bench.app.tokens.session(token);
      const statements = replay.get(url);
      if (!session || !statements) {
        response.writeHead(401).end();
        return;
      }
      let total = 0;
      let records: unknown[] = [];
      for (const statement of statements) {
        const { rows } = await bench.app.db.executeQuery<Record<string, unknown>>(statement);
        if (/count\(/i.test(statement.sql)) total = Number(Object.values(rows[0] ?? {})[0] ?? 0);
        else if (/\blimit\b/i.test(statement.sql)) records = rows;
      }
      const body = JSON.stringify({ success: true, message: '', code: 200, result: { records, total, size: 10, current: 1, pages: Math.ceil(total / 10) }, timestamp: Date.now() });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    };
    await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
    const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`;
    // each figure is its own scenario's: the requests a run leaves in flight are answered before the next run starts
    const ourRequests = inFlight(bench.app.server);
    const bareRequests = inFlight(baseline);

    for (const [name, path] of SCENARIOS) {
      const ours = await load(bench.url + path, headers, undefined, undefined, () => ourRequests.idle());
      const bare = await load(baselineUrl + path, headers, undefined, undefined, () => bareRequests.idle());
      const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
      const label = `api-list ${dialect} ${name}`;
      report(label, `${ours.requestsPerSecond.toFixed(0)}req/s`, `${bare.requestsPerSecond.toFixed(0)}req/s`, ratio, '>=0.6', ratio >= 0.6 && ours.failures === 0);
      if (dialect === 'sqlite') report(`${label} p99`, `${ours.p99}ms`, `${bare.p99}ms`, null, '<=50ms', ours.p99 <= 50);
    }
    baseline.closeAllConnections();
    await new Promise((resolve) => baseline.close(resolve));
  } finally {
    await bench.close();
  }
}
finish();
