// Builds the server (apps/server/src/main.ts with packages/contract) to JavaScript in apps/server/dist (with source
// maps), so the production server runs on plain `node` with nothing transpiled at start. The bundle is one CommonJS
// script, server.cjs, started by main.js (scripts/server-entry.mjs) through V8's code cache: ES modules cannot take a
// code cache on Node 20, and without one every start compiles again the functions the previous start compiled.
import { build } from 'esbuild';
import { copyFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const serverDist = join(root, 'apps/server/dist');

/**
 * Packages kept out of the bundle: native ones, the optional ones that load only when configured or used, and those
 * that read files of their own package at run time. The rest (fastify, kysely, zod, ...) is bundled: one file
 * loads much faster than hundreds of small modules.
 */
const external = [
  'better-sqlite3',
  '@node-rs/argon2',
  'pg',
  'mysql2',
  'ioredis',
  'exceljs',
  'svg-captcha',
  'nodemailer',
  'sanitize-html',
  'mqtt',
  'aedes',
  '@fastify/swagger-ui',
  'thread-stream',
  'pino-pretty',
].flatMap((name) => [name, `${name}/*`]);

/**
 * Node modules that fastify and ws require when they load but use only for HTTPS, HTTP/2, a listen on a host name or a
 * websocket client, and that prom-client's Pushgateway (loaded with its index, never used here) requires: in the bundle
 * each is a stand-in that requires the module at its first use (loading them is some 5 ms of a start).
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(https|http2|dns|tls)$/ }, (args) =>
      /[\\/](fastify[\\/]lib[\\/]server|ws[\\/]lib[\\/]websocket|prom-client[\\/]lib[\\/]pushgateway)\.js$/.test(args.importer) ? { path: args.path, namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let loaded;const load=()=>(loaded??=require(${JSON.stringify(args.path)}));module.exports=new Proxy({},{get:(_,key)=>load()[key],has:(_,key)=>key in load()});`,
      loader: 'js',
    }));
  },
};

/**
 * avvio (fastify's plugin loader) reports each step through node's util.debuglog: some ten calls for every plugin and
 * for every route, each through node's rest-argument wrapper though nothing is printed (about 10 ms and 2 MB of a
 * start with the console's 500 routes). In the bundle its logger is a plain no-op unless NODE_DEBUG is set, so
 * NODE_DEBUG=avvio still prints them.
 */
const quietAvvio = {
  name: 'quiet-avvio',
  setup(build) {
    build.onLoad({ filter: /[\\/]avvio[\\/]lib[\\/]debug\.js$/ }, () => ({
      contents: "'use strict';\nconst debug = process.env.NODE_DEBUG ? require('node:util').debuglog('avvio') : () => {};\nmodule.exports = { debug };\n",
      loader: 'js',
    }));
  },
};

/**
 * find-my-way (fastify's router) compiles a `new Function` of charCodeAt comparisons for every static node of its tree,
 * again each time a new route splits a node: with the console's 500 routes that was some 15-30 ms of a start and as
 * much JavaScript for V8 to compile. In the bundle a node's prefix is matched with String#startsWith (the router
 * itself does so for prefixes of 16 characters and more); a release of the router that changes the function fails
 * the build here instead of being left unpatched.
 */
const PREFIX_MATCH = "if (prefix.length === 1) {\n    return matchSingleCharPrefix\n  }\n";
const plainPrefixMatch = {
  name: 'plain-prefix-match',
  setup(build) {
    build.onLoad({ filter: /[\\/]find-my-way[\\/]lib[\\/]node\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(`function compilePrefixMatch (prefix) {\n  ${PREFIX_MATCH}`)) throw new Error(`find-my-way's compilePrefixMatch changed: look at ${args.path} again`);
      return { contents: source.replace(PREFIX_MATCH, `${PREFIX_MATCH}  return (path, i) => path.startsWith(prefix, i)\n`), loader: 'js' };
    });
  },
};

/** Builds into `outdir` (apps/server/dist unless given), replacing what was there. */
export async function buildServer(outdir = serverDist) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [join(root, 'apps/server/src/main.ts')],
    outfile: join(outdir, 'server.cjs'),
    bundle: true,
    format: 'cjs',
    // import() of an external package becomes a require when called: a script compiled by node:vm has no import()
    // without an experimental loader, and the optional packages are CommonJS (they still load only when called)
    supported: { 'dynamic-import': false },
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    // less source to parse at start; names are not changed, so stack traces stay readable without the source map
    minifyWhitespace: true,
    minifySyntax: true,
    // the dependencies' licence notices go to a file beside each output (they name authors in any script; see below)
    legalComments: 'external',
    external,
    plugins: [lazyBuiltins, quietAvvio, plainPrefixMatch],
    // the sources' import.meta.url (the server locates the console's build from it) is the bundle's own URL
    define: { 'import.meta.url': '__isps_import_meta_url' },
    banner: { js: "var __isps_import_meta_url=require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  copyFileSync(join(root, 'scripts/server-entry.mjs'), join(outdir, 'main.js'));
  refuseNonAscii(outdir);
}

/**
 * esbuild escapes what is not ASCII in strings but not in regular expression literals; one such character makes V8
 * hold the whole 3 MB file as a two-byte string (twice the memory) and read it through the slow UTF-8 decoder.
 */
function refuseNonAscii(dir) {
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(entry));
    if (!/\.c?js$/.test(file)) continue;
    const text = readFileSync(file, 'latin1');
    const at = text.search(/[\u0080-\u00ff]/);
    if (at >= 0) throw new Error(`${file} holds a character that is not ASCII near "${text.slice(Math.max(0, at - 40), at + 10)}"; write it as an escape (\\uXXXX) in the source`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  await buildServer();
  console.log(`server built to apps/server/dist in ${Date.now() - started} ms`);
}
