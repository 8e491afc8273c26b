/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const port = Number(process.env.PORT ?? 5173);

/**
 * Mounts the live-mode API (src/server) on the dev and preview servers, so `npm start`
 * serves the explorer and /api from one origin. The API module is loaded lazily: the
 * explorer works without it (and without OpenSearch).
 */
function liveApi(): Plugin {
  const mount = async (use: (fn: (req: any, res: any, next: () => void) => void) => void) => {
    let handler: ((req: any, res: any, next: () => void) => void) | null = null;
    try {
      const mod = (await import('./src/server/middleware.ts')) as { createApiMiddleware?: () => Promise<typeof handler> };
      handler = (await mod.createApiMiddleware?.()) ?? null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') console.warn(`[geoshard] live API not mounted: ${(e as Error).message}`);
    }
    use((req, res, next) => (handler && req.url?.startsWith('/api/') ? handler(req, res, next) : next()));
  };
  return {
    name: 'geoshard-live-api',
    // Vitest runs a Vite server too; the unit tests do not want the API.
    configureServer: (server) => (process.env.VITEST ? undefined : mount((fn) => server.middlewares.use(fn))),
    configurePreviewServer: (server) => mount((fn) => server.middlewares.use(fn)),
  };
}

export default defineConfig({
  plugins: [react(), liveApi()],
  server: { host: '127.0.0.1', port, strictPort: true },
  preview: { host: '127.0.0.1', port, strictPort: true },
  // Never inline data files: the explorer shows where its boundary file came from.
  // dist/app: dist/ also holds the package's built core, CLI and server (npm run build:lib).
  build: { outDir: 'dist/app', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000, assetsInlineLimit: 0 },
  worker: { format: 'es' },
  test: {
    testTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'], exclude: ['src/**/*.live.test.ts', 'node_modules/**'], environment: 'node' },
      },
      {
        // Against a real OpenSearch node (npm run cluster:start, or OPENSEARCH_URL); run by npm test.
        extends: true,
        test: { name: 'live', include: ['src/**/*.live.test.ts'], environment: 'node', fileParallelism: false, testTimeout: 180_000, hookTimeout: 300_000 },
      },
    ],
  },
});
