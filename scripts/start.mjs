// `npm start`: builds the console and the server when their builds are missing or older than their sources, then
// runs the compiled server in this very process (one Node process, plain JavaScript, nothing transpiled at start).
// package.json runs it with --max-semi-space-size=2: the burst of the start (route and schema compilation) otherwise
// grows V8's young generation to 2 x 16 MB, which then stays resident though nearly empty (the server's memory after
// the first login went from about 139 to 115 MB), and the start spent more CPU with it, not less.
import { pathToFileURL } from 'node:url';
import { ensureBuilt, serverMain } from './ensure-built.mjs';

if (!(await ensureBuilt())) process.exit(1);

// The server keeps the caller's working directory, so DATA_DIR=./data lands where `npm start` was run, and it handles
// SIGINT and SIGTERM itself. Source maps sit beside the build; NODE_OPTIONS=--enable-source-maps makes stack traces
// name the TypeScript sources (it costs about 80 MB, so it is not on by default).
await import(pathToFileURL(serverMain).href);
