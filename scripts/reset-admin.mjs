// `npm run reset-admin`: a new one-time password for `admin` (apps/server/src/reset-admin.ts), printed once here and
// again at every start until it is replaced. Run it where `npm start` runs, with the same environment.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The working directory stays the caller's, so DATA_DIR=./data names the same folder as for `npm start`.
const reset = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'apps/server/src/reset-admin.ts')], { stdio: 'inherit' });
reset.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
