// `npm start`: builds the console and the server when their builds are missing or older than their sources, then
// runs the compiled server in this very process (one Node process, plain JavaScript, nothing transpiled at start).
// package.json runs it with --max-semi-space-size=2: the burst of the start (route and schema compilation) otherwise
// grows V8's young generation to 2 x 16 MB, which then stays resident though nearly empty (the server's memory after
// the first login went from about 139 to 115 MB), and the start spent more CPU with it, not less.
import { pathToFileURL } from 'node:url';
import { ensureBuilt, serverMain } from './ensure-built.mjs';

// npm runs this through `sh -c` and passes a SIGTERM or SIGINT on to that shell only: the shell ends and this process
// would run on as an orphan. Whoever started us is gone when our parent changes, so we stop as on a SIGTERM (the
// server's own handler closes it and exits with its code; before that handler exists, the signal ends us at once).
const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanWatch);
  process.kill(process.pid, 'SIGTERM');
}, 250).unref();

if (!(await ensureBuilt())) process.exit(1);

// The server keeps the caller's working directory, so DATA_DIR=./data lands where `npm start` was run, and it handles
// SIGINT and SIGTERM itself. Source maps sit beside the build; NODE_OPTIONS=--enable-source-maps makes stack traces
// name the TypeScript sources (it costs about 80 MB, so it is not on by default).
await import(pathToFileURL(serverMain).href);
