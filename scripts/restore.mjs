// `npm run restore`: the database replaced by a backup file (apps/server/src/db/backup.ts); --force when it holds tables.
// Run it where `npm start` runs, with the same environment (DATA_DIR, DATABASE_URL).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The working directory stays the caller's, so DATA_DIR=./data and a relative file name mean what they do for `npm start`.
const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'apps/server/src/backup-restore.ts'), 'restore', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
