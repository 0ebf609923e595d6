// The built server's entry (apps/server/dist/main.js): runs the bundle beside it, server.cjs, compiled with the V8 code
// cache of an earlier start, so a start does not compile again the functions that starting needs. The cache is written
// beside the bundle by the first start that lacks a usable one, a few seconds in or at exit (what ran by then is
// compiled), and is named after the bundle file it was made from, so a rebuilt bundle never takes an older cache.
// With --enable-source-maps the bundle is required instead: node maps stack traces only for modules it loads itself.
import { closeSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const bundle = fileURLToPath(new URL('./server.cjs', import.meta.url));
const dir = dirname(bundle);
const require = createRequire(bundle);

if (process.sourceMapsEnabled) {
  require(bundle);
} else {
  const fd = openSync(bundle, 'r');
  let source;
  let stat;
  try {
    stat = fstatSync(fd);
    source = readFileSync(fd, 'latin1');
  } finally {
    closeSync(fd);
  }
  const cacheFile = join(dir, `${basename(bundle)}.${stat.ino}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // the wrapper node gives a CommonJS module, on the bundle's first line so that line numbers stay the bundle's own
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: bundle, cachedData });
  if (!cachedData || script.cachedDataRejected) {
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      try {
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
      } catch {
        // a read-only installation starts without the cache
      }
    };
    setTimeout(save, 10_000).unref();
    process.once('exit', save);
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, bundle, dir);
}
