import { orderEntity } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { registerEntity } from '../../platform/crud/index.ts';

/**
 * The order list (the origin's one-to-many demo under /test/jeecgOrderMain): the generic engine with the order's
 * customers and tickets as details, saved, deleted, exported and imported with each order.
 */
export function orderRoutes(app: FastifyInstance): void {
  registerEntity(app, orderEntity);
}
