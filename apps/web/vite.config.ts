import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompiledSpecValidators } from '../../packages/contracts/scripts/precompiled-validators.ts';

// In dev the API runs apart (default http://localhost:8080, or GANTRY_API); the built SPA is served by the API itself.
const api = process.env.GANTRY_API ?? 'http://localhost:8080';

/** Writes .br and .gz beside each built script, style and page: the server sends them as they are (no compression per request). */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'gantry-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir).filter((f) => /\.(js|css|html|svg|json)$/.test(f))) {
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  // the pipeline spec's validators compiled ahead: the browser's policy allows no eval, which Ajv compiles with
  plugins: [react(), precompiledSpecValidators(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '^/ms-realtime': { target: api, ws: true, changeOrigin: true },
      '^/ms-': { target: api, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which scripts each page loads, for the initial-JavaScript budget test (src/bundle-budget.test.ts)
    manifest: true,
    chunkSizeWarningLimit: 900,
  },
});
