import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { consoleAddress, loginBanner, pendingInitialPassword, rememberInitialPassword } from './initial-password.ts';


/** Lets the logger's lines of the start-up ("Server listening …") out first, so the banner ends the start-up. */
function flushLog(log: object): Promise<void> {
  // pino has flush(); the type Fastify exposes for its logger does not name it
  const { flush } = log as { flush?: (cb: () => void) => void };
  return new Promise((resolve) => {
    if (typeof flush === 'function') flush.call(log, () => setImmediate(resolve));
    else setImmediate(resolve);
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    process.stderr.write(`ISPS Console cannot start: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
    process.exit(1);
  }
  // before the banner: whoever reads it may stop us at once, and a signal with no handler yet would kill the process
  // without closing the database (and with no exit code)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  const address = app.server.address();
  // PORT=0 picks a free port; the banner shows the one actually bound
  const port = address && typeof address === 'object' ? address.port : config.port;
  const url = consoleAddress(config, port);
  const generated = app.seedOutcome.generatedAdminPassword;
  if (generated) rememberInitialPassword(config.dataDir, generated);
  // a generated password is shown at every start until it is replaced; ADMIN_PASSWORD is only pointed at, once
  const pending = await pendingInitialPassword(app.db, app.hasher, config.dataDir);
  await flushLog(app.log);
  if (pending) process.stdout.write(loginBanner({ url, password: pending, heading: app.seedOutcome.seeded ? 'ISPS Console is set up.' : 'ISPS Console is running.' }));
  else if (app.seedOutcome.seeded) process.stdout.write(loginBanner({ url, password: null, heading: 'ISPS Console is set up.' }));
}

// not awaited at the top level: the production build is a CommonJS script (scripts/build-server.mjs)
void main();
