import type { FastifyInstance } from 'fastify';
import type { CompiledQuery } from 'kysely';

/** Runs `fn` and answers every statement the app's database ran meanwhile (compiled, with parameters). */
export async function statementsOf(app: FastifyInstance, fn: () => Promise<unknown>): Promise<CompiledQuery[]> {
  const executor = app.db.getExecutor() as unknown as { executeQuery: (query: CompiledQuery, id: unknown) => Promise<unknown> };
  const original = executor.executeQuery;
  const seen: CompiledQuery[] = [];
  executor.executeQuery = function (query, id) {
    seen.push(query);
    return original.call(this, query, id);
  };
  try {
    await fn();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}
