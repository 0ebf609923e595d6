import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importZones from './scripts/eslint-import-zones.js';

const web = './apps/web/src';
const server = './apps/server/src';

/** One-way dependency graph (STYLE.md): app → features → shared → contract; server: main/app → modules → platform/db. */
const zones = [
  { target: `${web}/shared`, from: [`${web}/features`, `${web}/app`], message: 'shared code never imports a feature or the app shell' },
  { target: `${web}/features`, from: `${web}/app`, message: 'features never import the app shell' },
  { target: './packages/contract', from: ['./apps', './e2e'], message: 'the contract imports nothing of the apps' },
  { target: `${server}/platform`, from: `${server}/modules`, message: 'platform code never imports a product module' },
  { target: `${server}/db`, from: `${server}/modules`, message: 'the data layer never imports a product module' },
  { target: './apps/web', from: './apps/server', message: 'the console never imports server code' },
  { target: './apps/server', from: './apps/web', message: 'the server never imports console code' },
];

/** A feature never imports another feature, on either side. */
function featureIsolation(root, names) {
  return names.map((name) => ({
    target: `${root}/${name}`,
    from: `${root}`,
    except: [`./${name}`],
    message: 'a feature never imports another feature; move shared code to shared/ or platform/',
  }));
}

const dirs = (p) => (existsSync(p) ? readdirSync(p, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : []);

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', '**/*.d.ts', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { zones: importZones },
    rules: {
      'zones/no-restricted-paths': [
        'error',
        {
          zones: [
            ...zones,
            ...featureIsolation(`${web}/features`, dirs('apps/web/src/features')),
            ...featureIsolation(`${server}/modules`, dirs('apps/server/src/modules')),
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Scripts, the server entry point and tests print to the terminal on purpose.
    files: ['scripts/**', 'bench/**', 'tools/**', 'e2e/**', 'apps/server/src/main.ts', '**/*.test.{ts,tsx}'],
    rules: { 'no-console': 'off' },
  },
  {
    // The CRUD engine stays split by concern (DESIGN.md section 2): no one function grows back into the whole engine.
    files: ['apps/server/src/platform/crud/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
);
