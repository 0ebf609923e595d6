import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';

function firstStartBanner(config: Config, port: number, password: string | null): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    'ISPS Console is set up.',
    `  Open:      http://${host}:${port}/`,
    '  User name: admin',
    password ? `  Password:  ${password}` : '  Password:  the value of ADMIN_PASSWORD',
    password ? '  This password is shown only now. You must change it at first login.' : '  You must change it at first login.',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const rule = '='.repeat(width);
  return ['', rule, ...lines, rule, ''].join('\n');
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
  const address = app.server.address();
  // PORT=0 picks a free port; the banner shows the one actually bound
  const port = address && typeof address === 'object' ? address.port : config.port;
  if (app.seedOutcome.seeded) process.stdout.write(firstStartBanner(config, port, app.seedOutcome.generatedAdminPassword));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

await main();
