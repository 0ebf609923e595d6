/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';
import { precompress } from '../../scripts/precompress.mjs';
// the contract by file: the config is loaded by Node, which does not load the package's TypeScript
import { AccountPath } from '../../packages/contract/src/account.ts';
import { API_PREFIX_DEFAULT } from '../../packages/contract/src/http.ts';
import { ApiPath } from '../../packages/contract/src/paths.ts';
import { entityLabels } from '../../packages/contract/src/crud/labels.ts';
import { BROWSER_LANGUAGE_JS, loginShellScript } from './src/app/login-shell/shell-script.ts';
import { LOGIN_PATH } from './src/shared/session/redirect-target.ts';

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
 * that reads the stored language (pro__lang, SPEC section 9; until one is chosen the browser's when the console speaks
 * it, else zh-CN) and names the catalogue's
 * chunks for the browser to fetch (a file of its own: the server's content security policy refuses inline scripts),
 * and the entry's too unless the drawn login page shows (loginShell: there the entry waits for the person). antd's and
 * dayjs's texts come later, with antd.
 */
function preloadCatalogue(): Plugin {
  // a classic script at the head's start: it runs as soon as it is in (a module script waits for the document, an
  // async one for the browser to get round to it)
  return classicScript('isps-preload-catalogue', 'catalogue-preload', 'head-prepend', (ctx) => {
    if (!ctx.chunk) return null;
    const bundle = ctx.bundle;
    const entry = new Set(chunkWithImports(bundle, ctx.chunk.facadeModuleId ?? ''));
    const catalogues = Object.fromEntries(
      ['zh-CN', 'en-US', 'ja-JP'].map((lang) => [lang, chunkWithImports(bundle, `src/locales/${lang}.ts`).filter((f) => !entry.has(f))]),
    );
    return (
      `{const c=${JSON.stringify(catalogues)};let l=${BROWSER_LANGUAGE_JS},r=null,t=null;` +
      `try{t=localStorage.getItem('pro__Access-Token');r=JSON.parse(localStorage.getItem('pro__lang')).value}catch{}` +
      `if(r&&c[r])l=r;const p=[...c[l]];if(!(${SHELL_VISIT}))p.unshift(${JSON.stringify(ctx.chunk.fileName)});` +
      `for(const f of p){const k=document.createElement('link');k.rel='modulepreload';k.href='/'+f;document.head.append(k)}}\n`
    );
  });
}

/**
 * True, in the classic scripts of index.html, when a first visit's login page is drawn before the console runs
 * (loginShell): no one is signed in (`t` holds the stored token) and the address is the login page.
 */
const SHELL_VISIT = `!t&&${JSON.stringify([LOGIN_PATH, `${LOGIN_PATH}/`])}.includes(location.pathname)`;

/**
 * A plugin that gives index.html a classic script of its own, `/assets/<name>-<hash of its content>.js` (the server
 * caches assets for good; its content security policy refuses inline scripts), made by `source` from the build;
 * `source` may also give the page back changed.
 */
function classicScript(
  plugin: string,
  name: string,
  injectTo: 'head-prepend' | 'body',
  source: (
    ctx: { bundle: Rollup.OutputBundle; chunk?: Rollup.OutputChunk; html: string },
    root: string,
  ) => string | { script: string; html: string } | null | Promise<string | { script: string; html: string } | null>,
): Plugin {
  let root = '';
  let script: { file: string; source: string } | null = null;
  return {
    name: plugin,
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    writeBundle(options) {
      if (script) writeFileSync(join(options.dir ?? join(root, 'dist'), script.file), script.source);
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (!ctx.bundle) return;
        const made = await source({ bundle: ctx.bundle, chunk: ctx.chunk, html }, root);
        if (made === null) return;
        const text = typeof made === 'string' ? made : made.script;
        script = { file: `assets/${name}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}.js`, source: text };
        return { html: typeof made === 'string' ? html : made.html, tags: [{ tag: 'script', attrs: { src: `/${script.file}` }, injectTo }] };
      },
    },
  };
}

/** Where a named import of a library's index is taken from instead: the module, and its name there. */
type Sources = ReadonlyMap<string, { from: string; name: string }>;

/** antd's components by their index's names: `export { default as Button } from './button';` */
function antdSources(): Sources {
  const index = join(dirname(createRequire(import.meta.url).resolve('antd/package.json')), 'es/index.js');
  const sources = new Map<string, { from: string; name: string }>();
  for (const match of readFileSync(index, 'utf8').matchAll(/export \{ default as (\w+) \} from '\.\/([\w/-]+)';/g)) sources.set(match[1]!, { from: `antd/es/${match[2]!}`, name: 'default' });
  return sources;
}

/** rc-form's index builds its Form from everything it has; its contexts and parts are modules of their own. */
const RC_FORM_SOURCES: Sources = new Map([
  ['FormProvider', { from: '@rc-component/form/es/FormContext', name: 'FormProvider' }],
  ['FieldContext', { from: '@rc-component/form/es/FieldContext', name: 'default' }],
  ['ListContext', { from: '@rc-component/form/es/ListContext', name: 'default' }],
  ['Field', { from: '@rc-component/form/es/Field', name: 'default' }],
  ['List', { from: '@rc-component/form/es/List', name: 'default' }],
  ['useForm', { from: '@rc-component/form/es/hooks/useForm', name: 'default' }],
  ['useWatch', { from: '@rc-component/form/es/hooks/useWatch', name: 'default' }],
]);

/**
 * `import { Button, Table } from 'antd'` becomes `import Button from 'antd/es/button'` and so on, in the console's
 * code and in its libraries' (ProLayout's); antd's own `import { FormProvider } from '@rc-component/form'` (every
 * input's form context) likewise. Rolldown places a module in the chunks of every screen that reaches it through
 * static imports, used or not, and an index that does more than re-export reaches all it holds: a screen that drew
 * one Result fetched the table, the tree, the select and the date picker the CRUD screens use, and any input the
 * whole form engine. Imported one by one, a screen's chunks hold what it draws.
 */
function importsByModule(): Plugin {
  const libraries = new Map<string, Sources>([
    ['antd', antdSources()],
    ['@rc-component/form', RC_FORM_SOURCES],
  ]);
  const IMPORT = /import\s*\{([^}]*)\}\s*from\s*(['"])(antd|@rc-component\/form)\2;?/g;
  return {
    name: 'isps-imports-by-module',
    apply: 'build',
    transform: {
      filter: { code: /from\s*['"](antd|@rc-component\/form)['"]/ },
      handler(code, id) {
        if (!/\.[cm]?[jt]sx?$/.test(id.replace(/\?.*$/, ''))) return null;
        let changed = false;
        const out = code.replace(IMPORT, (whole, names: string, _quote: string, library: string) => {
          const sources = libraries.get(library)!;
          const specifiers = names.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '));
          const parts = specifiers.map((specifier) => {
            const [imported, local = imported] = specifier.split(/\s+as\s+/) as [string, string?];
            const source = sources.get(imported);
            if (!source) return null;
            return source.name === 'default' ? `import ${local} from '${source.from}';` : `import { ${source.name} as ${local} } from '${source.from}';`;
          });
          // a name the table does not know keeps the index
          if (parts.some((p) => p === null)) return whole;
          changed = true;
          return parts.join('');
        });
        return changed ? { code: out, map: null } : null;
      },
    },
  };
}

/** `virtual:isps-entity-labels/<language>`: the entity labels of one language (shared/i18n/entity-labels.ts). */
const ENTITY_LABELS = 'virtual:isps-entity-labels/';

/**
 * The contract keeps each entity label in the three languages side by side, beside the screen declarations (with
 * their zod schemas and the check rules' pattern engine) in the same modules: the console loading them took all of
 * that and three languages for one. Here each language's labels are a module of their own, made when the console is
 * built (or served; a change to the labels takes a restart there).
 */
function entityLabelsByLanguage(): Plugin {
  return {
    name: 'isps-entity-labels',
    resolveId(id) {
      return id.startsWith(ENTITY_LABELS) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${ENTITY_LABELS}`)) return null;
      const language = id.slice(ENTITY_LABELS.length + 1) as keyof typeof entityLabels;
      if (!Object.hasOwn(entityLabels, language)) throw new Error(`no entity labels in ${language}`);
      return `export default ${JSON.stringify(entityLabels[language])};\n`;
    },
  };
}

/** The languages the console speaks, in the names antd's and ProLayout's texts go by. */
const CONSOLE_LOCALES = new Set(['zh_CN', 'en_US', 'ja_JP']);

/**
 * ProLayout's context module imports its texts in all 34 languages it knows (some 15 KB the frame carried); the
 * console speaks three: the others become empty tables (a missing text falls back to ProLayout's own zh-CN, as it does
 * for any language it lacks).
 */
function proLayoutLocales(): Plugin {
  return {
    name: 'isps-pro-layout-locales',
    apply: 'build',
    transform: {
      filter: { id: /@ant-design[\\/]pro-components[\\/]es[\\/]provider[\\/]intl\.js$/ },
      handler(code) {
        const out = code.replace(/import (\w+) from "\.\/locale\/(\w+)";/g, (whole, local: string, locale: string) => (CONSOLE_LOCALES.has(locale) ? whole : `const ${local} = {};`));
        if (out === code) throw new Error('ProLayout no longer imports its texts as expected: isps-pro-layout-locales needs a look');
        return { code: out, map: null };
      },
    },
  };
}

/** A `localStorage` in memory, for code of the console's that runs in Node at build time. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

/** The login page in every language, rendered by its own components (render-login-shells.tsx, built for Node here). */
async function renderLoginShells(root: string): Promise<{ year: number; shells: Record<string, string> }> {
  const out = mkdtempSync(join(tmpdir(), 'isps-login-shell-'));
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [react(), entityLabelsByLanguage()],
      ssr: { noExternal: true },
      build: { ssr: 'src/app/login-shell/render-login-shells.tsx', outDir: out, emptyOutDir: true, minify: false, rolldownOptions: { output: { entryFileNames: 'render.mjs' } } },
    });
    const had = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', { value: memoryStorage(), configurable: true, writable: true });
    try {
      const module = (await import(pathToFileURL(join(out, 'render.mjs')).href)) as { renderLoginShells: () => Promise<{ year: number; shells: Record<string, string> }> };
      return await module.renderLoginShells();
    } finally {
      if (had) Object.defineProperty(globalThis, 'localStorage', had);
      else delete (globalThis as { localStorage?: Storage }).localStorage;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** What a person does that starts the console's script on a first visit's login page (beside a second's wait). */
const CONSOLE_START_EVENTS = ['keydown', 'pointerdown', 'input'] as const;
/** How long a first visit's login page waits for the person before it starts the console's script anyway. */
const CONSOLE_START_WAIT_MS = 1000;

/**
 * The login page of a first visit shows before the console's script has come and run: a classic script at the end of
 * the body (the server's content security policy refuses inline scripts) puts the page, rendered at build time in the
 * stored language (zh-CN until one is chosen), into #root when the address is the login page and no one is signed in,
 * and marks it (login-shell.ts); the console then draws the page over it, keeping what was typed. The script shows the
 * captcha picture at once and holds a submit for the console (app/login-shell/shell-script.ts).
 * The same script starts the console's script (the entry, no longer a module script of the page): at once on any other
 * address (the head's first script has already asked for it), and on the drawn login page when the person first
 * presses a key, points or types, or after a second.
 * Fetching, compiling and running the console is the page's longest work (some 100 ms of the main thread on a small
 * machine); started beside the drawn page it held the page's first answers to the person back by as much.
 */
function loginShell(): Plugin {
  return classicScript('isps-login-shell', 'login-shell', 'body', async (ctx, root) => {
    const entry = ctx.chunk?.fileName;
    if (!entry) throw new Error('index.html has no entry chunk');
    const tag = `<script type="module" crossorigin src="/${entry}"></script>`;
    if (!ctx.html.includes(tag)) throw new Error(`index.html does not start /${entry} as a module script`);
    const { year, shells } = await renderLoginShells(root);
    const script = loginShellScript({
      shells,
      year,
      entry: `/${entry}`,
      apiBase: process.env.VITE_API_BASE || API_PREFIX_DEFAULT,
      paths: { randomImage: ApiPath.randomImage, loginSettings: AccountPath.loginSettings },
      loginPaths: [LOGIN_PATH, `${LOGIN_PATH}/`],
      events: CONSOLE_START_EVENTS,
      waitMs: CONSOLE_START_WAIT_MS,
    });
    return { script, html: ctx.html.replace(tag, '') };
  });
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), entityLabelsByLanguage(), importsByModule(), proLayoutLocales(), preloadCatalogue(), loginShell(), precompress()],
  test: { setupFiles: [`${import.meta.dirname}/src/test-setup.ts`] },
  server: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // an icon's chunk (icon-by-name.tsx loads any of some 800 by name) needs only what the frame has already loaded,
    // antd's icon base: no preload list for each, which the frame would carry
    modulePreload: { resolveDependencies: (file, deps) => (/\/[A-Z]\w*(Outlined|Filled|TwoTone)-[\w-]+\.js$/.test(file) ? [] : deps) },
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
