import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { ESLint } from 'eslint';

/**
 * The lint pass enforces DESIGN §3's boundaries: these plant the imports it must refuse (and one it
 * must allow) in files of the real tree, linted with the real configuration.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** A file inside a feature other than its index (what another feature must not import). */
function insideOf(feature: string) {
  const dir = path.join(root, 'apps/web/src/features', feature);
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  const file = walk(dir).find((f) => /\.tsx?$/.test(f) && !/\/index\.tsx?$/.test(f) && !f.endsWith('.test.ts'))!;
  return path.relative(path.join(root, 'apps/web/src/features/projects'), file).replace(/\.tsx?$/, '');
}

describe('lint boundaries', () => {
  it('refuses a feature importing the insides of another feature', async () => {
    const found = await problems('apps/web/src/features/projects/planted.ts', `import * as x from '${insideOf('pipelines')}';\nexport const y = x;\n`);
    expect(found.join('\n')).toMatch(/import-x\/no-restricted-paths: .*features\/projects may import features\/pipelines only through its index/);
  });

  it('lets a feature import another through its index', async () => {
    expect(fs.existsSync(path.join(root, 'apps/web/src/features/pipelines/index.ts'))).toBe(true);
    const found = await problems('apps/web/src/features/projects/planted.ts', `import * as x from '../pipelines';\nexport const y = x;\n`);
    expect(found.filter((p) => p.startsWith('import-x/no-restricted-paths'))).toEqual([]);
  });

  it('refuses ui/ importing a feature', async () => {
    const found = await problems('apps/web/src/ui/planted.ts', `import * as x from '../features/pipelines';\nexport const y = x;\n`);
    expect(found.join('\n')).toMatch(/ui\/ never imports features/);
  });

  it("refuses a module importing another module's insides, and lets it use the port", async () => {
    const store = await problems('apps/server/src/modules/deployments/planted.ts', `import * as x from '../stages/stages.store.js';\nexport const y = x;\n`);
    expect(store.join('\n')).toMatch(/modules\/deployments may import modules\/stages only through stages\.port\.ts/);
    const port = await problems(
      'apps/server/src/modules/deployments/planted.ts',
      `import type * as x from '../stages/stages.port.js';\nexport type Y = typeof x;\n`,
    );
    expect(port.filter((p) => p.startsWith('import-x/no-restricted-paths'))).toEqual([]);
  });

  it("lets a table name another module's table (a foreign key), never a store", async () => {
    const planted = `import { projects } from '../projects/projects.tables.js';\nexport const y = projects;\n`;
    const inStore = await problems('apps/server/src/modules/notifications/planted.store.ts', planted);
    expect(inStore.join('\n')).toMatch(/modules\/notifications may import modules\/projects only through projects\.port\.ts/);
    const inTables = await problems('apps/server/src/modules/notifications/planted.tables.ts', planted);
    expect(inTables.filter((p) => p.startsWith('import-x/no-restricted-paths'))).toEqual([]);
  });

  it('refuses platform/ importing a module, and drizzle outside stores and tables', async () => {
    expect(
      (await problems('apps/server/src/platform/planted.ts', `import * as x from '../modules/users/users.service.js';\nexport const y = x;\n`)).join('\n'),
    ).toMatch(/platform\/ never imports modules\//);
    expect(
      (await problems('apps/server/src/modules/users/planted.service.ts', `import { eq } from 'drizzle-orm';\nexport const y = eq;\n`)).join('\n'),
    ).toMatch(/drizzle only in/);
  });
});
