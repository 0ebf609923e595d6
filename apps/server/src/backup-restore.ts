// `npm run backup [file]` and `npm run restore <file> [--force]` (scripts/backup.mjs, scripts/restore.mjs): the
// database of the environment they run in (DATA_DIR, DATABASE_URL), as the server reads them. See apps/server/src/db/backup.ts.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { backupDatabase, BackupError, defaultBackupFile, restoreDatabase } from './db/backup.ts';

const USAGE = {
  backup: 'usage: npm run backup [-- <file>]   (default: DATA_DIR/backups/isps-<time>.<db|dump|sql>)',
  restore: 'usage: npm run restore -- <file> [--force]   (--force: replace a database that holds tables)',
};

const [mode, ...rest] = process.argv.slice(2);
if (mode !== 'backup' && mode !== 'restore') {
  process.stderr.write(`${USAGE.backup}\n${USAGE.restore}\n`);
  process.exit(2);
}

try {
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
  if (positionals.length > 1 || (mode === 'backup' && values.force)) throw new BackupError(USAGE[mode]);
  const config = loadConfig(process.env);
  if (mode === 'backup') {
    const { file, bytes } = await backupDatabase(config, positionals[0] ?? defaultBackupFile(config));
    process.stdout.write(`Backup of the ${config.dialect} database written to ${file} (${bytes} bytes).\n`);
  } else {
    // a restore replaces data: it never guesses which file
    if (!positionals[0]) throw new BackupError(`name the backup file to restore. ${USAGE.restore}`);
    await restoreDatabase(config, positionals[0], { force: values.force });
    process.stdout.write(`The ${config.dialect} database is restored from ${positionals[0]}. Start the server again (it migrates an older backup forward).\n`);
  }
} catch (error) {
  const message = error instanceof ConfigError || error instanceof BackupError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`Cannot ${mode}: ${message}\n`);
  process.exit(error instanceof ConfigError || error instanceof BackupError ? 2 : 1);
}
