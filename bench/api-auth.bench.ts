/**
 * api-auth: what authenticating and authorising one request costs on a warm cache (the access hook's session and
 * permission-set lookup plus the permission check), measured directly over many calls. Baseline: the same lookup
 * with the caches emptied before each call, which reads the tables as every request did before they were cached.
 * Target: <= 0.1 ms per request warm.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { finish, report, startConsole } from './support.ts';

const bench = await startConsole('sqlite');
try {
  const { app, token } = bench;
  const request = { headers: { 'x-access-token': token } } as unknown as FastifyRequest;
  const authorise = async () => {
    const user = await app.accessCache.caller(request, token);
    if (!user?.permissions.has('system:user:list')) throw new Error('the administrator must hold system:user:list');
  };
  const perCall = async (rounds: number, before?: () => void) => {
    for (let i = 0; i < 200; i++) await authorise();
    let spent = 0;
    for (let i = 0; i < rounds; i++) {
      before?.();
      const start = performance.now();
      await authorise();
      spent += performance.now() - start;
    }
    return spent / rounds;
  };
  const warm = await perCall(100_000);
  const cold = await perCall(2_000, () => app.accessCache.forget({ sessions: true, profiles: true }));
  report('api-auth warm', `${warm.toFixed(4)}ms`, `${cold.toFixed(4)}ms`, warm / cold, '<=0.1ms', warm <= 0.1);
} finally {
  await bench.close();
}
finish();
