// Writes `.br` and `.gz` beside every text asset of the console build, so the server sends them as they are
// (@fastify/static preCompressed) instead of sending JavaScript uncompressed or compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** below this a compressed copy saves less than it costs */
const MIN_BYTES = 1024;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** @returns {number} how many assets got compressed copies */
export function precompressBuild(outDir) {
  let written = 0;
  for (const file of filesUnder(outDir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    if (content.length < MIN_BYTES) continue;
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    written += 1;
  }
  return written;
}

/** The Vite plugin: runs once the bundle is written. */
export function precompress() {
  let outDir = '';
  return {
    name: 'isps-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressBuild(outDir);
    },
  };
}
