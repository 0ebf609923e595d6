import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Config, DatabaseDialect } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { Cache } from './cache.ts';
import type { Clock } from './clock.ts';
import type { PasswordHasher } from './passwords.ts';
import { TokenService } from './tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    settings: Config;
    db: Kysely<Database>;
    dialect: DatabaseDialect;
    cache: Cache;
    clock: Clock;
    hasher: PasswordHasher;
    tokens: TokenService;
  }
}

export interface PlatformServices {
  config: Config;
  database: DatabaseHandle;
  cache: Cache;
  clock: Clock;
  hasher: PasswordHasher;
  tokenPepper: string;
}

/** Decorates the instance with the shared services and closes them with it. */
export const servicesPlugin = fp<PlatformServices>(
  async (app, services) => {
    app.decorate('settings', services.config);
    app.decorate('db', services.database.db);
    app.decorate('dialect', services.database.dialect);
    app.decorate('cache', services.cache);
    app.decorate('clock', services.clock);
    app.decorate('hasher', services.hasher);
    const tokens = new TokenService(services.database.db, services.tokenPepper, services.clock);
    app.decorate('tokens', tokens);
    app.addHook('onReady', () => tokens.purgeExpired());
    app.addHook('onClose', async () => {
      await services.cache.close();
      await services.database.destroy();
    });
  },
  { name: 'services' },
);
