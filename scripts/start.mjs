#!/usr/bin/env node
// `npm start`: serves the BUILT explorer (dist/) on http://127.0.0.1:5173 (PORT overrides) with the
// live-mode API beside it on /api (vite.config.ts mounts it on the preview server; it answers even
// when no OpenSearch node does). Builds dist/ first when it is missing or older than the sources.
// Nothing but the build is served: no project sources, no CORS headers, no filesystem paths.
// `npm run dev` runs Vite's dev server instead (hot reload, sources served: for development only).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'node_modules', 'vite'))) {
  console.error('geoshard: dependencies are missing: run `npm ci` first.');
  process.exit(1);
}
if (!existsSync(join(root, 'data', 'boundaries.json'))) {
  console.error('geoshard: data/boundaries.json is missing: run `npm run data:generate` to rebuild the bundled data.');
  process.exit(1);
}

/** The build's inputs: what `vite build` reads (tests aside). */
const INPUTS = ['src', 'public', 'data', 'index.html', 'vite.config.ts', 'package.json', 'package-lock.json'];
const isTest = (name) => /\.(test|spec)\.tsx?$/.test(name);

/** newest returns the most recently modified input file under `path` (or null if none exists). */
function newest(path) {
  if (!existsSync(path)) return null;
  const st = statSync(path);
  if (!st.isDirectory()) return isTest(path) ? null : { path, mtimeMs: st.mtimeMs };
  let best = null;
  for (const entry of readdirSync(path)) {
    const n = newest(join(path, entry));
    if (n && (!best || n.mtimeMs > best.mtimeMs)) best = n;
  }
  return best;
}

/** staleReason says why dist/ must be (re)built, or null when it is up to date. */
export function staleReason() {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'dist/ has no build';
  const builtAt = statSync(built).mtimeMs;
  for (const input of INPUTS) {
    const n = newest(join(root, input));
    if (n && n.mtimeMs > builtAt) return `${relative(root, n.path)} is newer than the build`;
  }
  return null;
}

// vite.config.ts imports the core's extensionless TypeScript; Vite's native config loader notice is noise here.
process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= 'true';
const configFile = join(root, 'vite.config.ts');
const { build, preview } = await import('vite');

const why = staleReason();
if (why) {
  console.log(`geoshard: building the explorer into dist/ (${why}); this takes about half a minute...`);
  const t0 = performance.now();
  await build({ root, configFile, logLevel: 'warn', clearScreen: false });
  console.log(`geoshard: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const server = await preview({ root, configFile, clearScreen: false });
const address = server.httpServer.address();
const port = typeof address === 'object' && address ? address.port : server.config.preview.port;
console.log(`geoshard explorer: http://127.0.0.1:${port}/`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
