import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In dev the API runs apart (default http://localhost:8080, or GANTRY_API); the built SPA is served by the API itself.
const api = process.env.GANTRY_API ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
    chunkSizeWarningLimit: 900,
  },
});
