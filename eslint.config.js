// The lint pass of `npm test`: TypeScript rules, React hooks, and the boundaries of DESIGN §3 —
// features never import another feature's insides, ui/ and api/ never import features, server
// modules see each other only through ports, drizzle stays in stores/tables, platform/ never
// imports modules/, and no import cycles.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';

const root = path.dirname(fileURLToPath(import.meta.url));
const dirsIn = (rel) =>
  fs.existsSync(path.join(root, rel))
    ? fs
        .readdirSync(path.join(root, rel), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

const features = dirsIn('apps/web/src/features');
const modules = dirsIn('apps/server/src/modules');

/** A feature is entered only through its index. */
const featureZones = features.flatMap((own) =>
  features
    .filter((other) => other !== own)
    .map((other) => ({
      target: `./apps/web/src/features/${own}`,
      from: `./apps/web/src/features/${other}`,
      except: ['./index.ts', './index.tsx'],
      message: `features/${own} may import features/${other} only through its index.ts`,
    })),
);

/** Folders of one bounded context (one module): pipelines and their builds. */
const CONTEXT_OF = { builds: 'pipelines' };
const context = (dir) => CONTEXT_OF[dir] ?? dir;

/**
 * A module sees another only through its port (types) — its api arrives at run time through
 * `needs`. Only a table may name another module's table: a foreign key is part of one schema. A store
 * reads its own tables only; a row's project or user name comes from that module's api.
 */
const moduleZones = ({ schema }) =>
  modules.flatMap((own) =>
    modules
      .filter((other) => context(other) !== context(own))
      .map((other) => ({
        target: `./apps/server/src/modules/${own}`,
        from: `./apps/server/src/modules/${other}`,
        except: [`./${other}.port.ts`, ...(schema ? [`./${other}.tables.ts`] : [])],
        message: `modules/${own} may import modules/${other} only through ${other}.port.ts`,
      })),
  );

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.test-results/**', 'e2e/.artifacts/**', 'apps/server/migrations/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        window: 'readonly',
        document: 'readonly',
        localStorage: 'readonly',
        navigator: 'readonly',
      },
    },
    // TypeScript's ESM imports name `.js` files that are `.ts` on disk: resolved as tsc does, or the boundaries would see nothing
    // (import-x 4.6 and resolver-typescript 3.8: the later ones need a native resolver with no build for every platform in the registry)
    settings: {
      'import-x/resolver': {
        typescript: { project: ['packages/*/tsconfig.json', 'apps/*/tsconfig.json', 'e2e/tsconfig.json', 'test-support/tsconfig.json', 'bench/tsconfig.json'] },
      },
    },
    rules: {
      // the codebase's own choices: `any` at untyped edges (pg-boss, JSON bodies), unused args named `_x`
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones,
            { target: './apps/web/src/ui', from: './apps/web/src/features', message: 'ui/ never imports features' },
            { target: './apps/web/src/api', from: './apps/web/src/features', message: 'api/ never imports features' },
            { target: './apps/server/src/platform', from: './apps/server/src/modules', message: 'platform/ never imports modules/' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    // tests set up their data across modules on purpose
    ignores: ['apps/server/src/modules/**/*.tables.ts', 'apps/server/src/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleZones({ schema: false }) }] },
  },
  {
    files: ['apps/server/src/modules/**/*.tables.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleZones({ schema: true }) }] },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.store.ts',
      'apps/server/src/**/*.tables.ts',
      'apps/server/src/platform/db.ts',
      'apps/server/src/platform/db-template.ts',
      'apps/server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['drizzle-orm', 'drizzle-orm/*'], message: 'drizzle only in *.store.ts, *.tables.ts and platform/db.ts' }] },
      ],
    },
  },
  {
    // a workspace imports only what its package.json declares (or the root's tools): hoisting must not hide a missing dependency
    files: ['e2e/**/*.ts'],
    rules: { 'import-x/no-extraneous-dependencies': ['error', { packageDir: [path.join(root, 'e2e'), root] }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // the rules of hooks and complete effect dependencies; not v7's compiler-oriented rules (set-state-in-effect, refs), which judge patterns this app uses on purpose
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
