/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { precompress } from '../../scripts/precompress.mjs';

/** The chunk built from the module whose path ends with `suffix`, and the chunks it imports, transitively. */
function chunkWithImports(bundle: Rollup.OutputBundle, suffix: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const start = chunks.find((c) => c.facadeModuleId?.endsWith(suffix));
  if (!start) throw new Error(`no chunk for ${suffix}`);
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const imported of (bundle[file] as Rollup.OutputChunk).imports) visit(imported);
  };
  visit(start.fileName);
  return [...files];
}

/**
 * The active language's catalogue is a dynamic import of the entry (the login page is part of the entry): without a
 * hint the browser asks for it only once the entry has run. index.html has a tiny script, run as soon as it is in,
 * that reads the stored language (pro__lang, SPEC section 9; zh-CN until one is chosen) and names the catalogue's
 * chunks for the browser to fetch beside the entry (a file of its own: the server's content security policy refuses
 * inline scripts). antd's and dayjs's texts come later, with antd.
 */
function preloadCatalogue(): Plugin {
  let outDir = '';
  let script: { file: string; source: string } | null = null;
  return {
    name: 'isps-preload-catalogue',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    writeBundle() {
      if (script) writeFileSync(join(outDir, script.file), script.source);
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return;
        const entry = new Set(chunkWithImports(ctx.bundle, ctx.chunk.facadeModuleId ?? ''));
        const catalogues = Object.fromEntries(
          ['zh-CN', 'en-US', 'ja-JP'].map((lang) => [
            lang,
            chunkWithImports(ctx.bundle!, `src/locales/${lang}.ts`).filter((f) => !entry.has(f)),
          ]),
        );
        const source =
          `{const c=${JSON.stringify(catalogues)};let l='zh-CN',r=null;try{r=localStorage.getItem('pro__lang');r=JSON.parse(r).value}catch{}` +
          `if(r&&c[r])l=r;for(const f of c[l]){const k=document.createElement('link');k.rel='modulepreload';k.href='/'+f;document.head.append(k)}}\n`;
        script = { file: `assets/catalogue-preload-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`, source };
        // a classic script at the head's start: it runs as soon as it is in (a module script waits for the document,
        // an async one for the browser to get round to it), while the browser fetches the entry beside it
        return [{ tag: 'script', attrs: { src: `/${script.file}` }, injectTo: 'head-prepend' as const }];
      },
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), preloadCatalogue(), precompress()],
  test: { setupFiles: [`${import.meta.dirname}/src/test-setup.ts`] },
  server: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // zod's schema builders have no side effects: a module's unused schemas (the contract declares many beside the
      // constants and helpers the login page needs) are dropped instead of bringing zod along
      treeshake: { manualPureFunctions: ['z'] },
      // everything the entry runs statically in one chunk: as some forty chunks (and the login page's twenty) the
      // browser fetched them a few at a time and the password field waited for the last; the login page and every
      // other screen stay chunks of their own, loaded by route
      output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] } },
    },
  },
});
