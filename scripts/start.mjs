#!/usr/bin/env node
// `npm start`: serves the BUILT explorer (dist/) on http://127.0.0.1:5173 (PORT overrides) with the
// live-mode API beside it on /api (vite.config.ts mounts it on the preview server; it answers even
// when no OpenSearch node does). Builds dist/ first when it is missing or older than the sources.
// Nothing but the build is served: no project sources, no CORS headers, no filesystem paths.
// `npm run dev` runs Vite's dev server instead (hot reload, sources served: for development only).
// startExplorer (exported) is the same server for `geoshard review` (src/cli/commands/review.ts),
// which adds the files under review at fixed paths.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, relative } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

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
  const built = join(root, 'dist', 'app', 'index.html'); // vite.config.ts build.outDir
  if (!existsSync(built)) return 'dist/ has no build';
  const builtAt = statSync(built).mtimeMs;
  for (const input of INPUTS) {
    const n = newest(join(root, input));
    if (n && n.mtimeMs > builtAt) return `${relative(root, n.path)} is newer than the build`;
  }
  return null;
}

/**
 * servedFilesPlugin is a preview-server plugin that mounts src/server/staticFiles.ts servedFiles
 * (the files the person named at fixed paths, and `page` written into the app's page) before the
 * build-only guard of vite.config.ts. The TypeScript module is loaded through Vite's own runner.
 */
async function servedFilesPlugin(files, page, outDir) {
  const { runnerImport } = await import('vite');
  const { module } = await runnerImport(join(root, 'src', 'server', 'staticFiles.ts'));
  const handler = module.servedFiles(files, page, outDir);
  return { name: 'geoshard-served-files', enforce: 'pre', configurePreviewServer: (server) => void server.middlewares.use(handler) };
}

/**
 * startExplorer builds the explorer if dist/ is stale and serves it on 127.0.0.1:`port` (0 or
 * absent: PORT, else 5173), with `files` ({ '/review/candidate.json': '/abs/path.json' }) served
 * as they are and `page` (optional: the files the app opens instead of the bundled data, see
 * servedFilesPlugin) written into its page. `env` ({ GEOSHARD_BOUNDARIES: path, OPENSEARCH_URL: url })
 * is set in this process before the live API is mounted (vite.config.ts reads it there), so the
 * API on /api serves the same boundary file and cluster. Resolves to { url, close }; throws an
 * Error saying what to do when the project's dependencies or data are missing, or when the port
 * is taken.
 */
export async function startExplorer({ port, files = {}, page = null, env = {}, log = console.log } = {}) {
  if (!existsSync(join(root, 'node_modules', 'vite'))) throw new Error('dependencies are missing: run `npm ci` first');
  if (!existsSync(join(root, 'data', 'boundaries.json'))) throw new Error('data/boundaries.json is missing: run `npm run data:generate` to rebuild the bundled data');
  // vite.config.ts imports the core's extensionless TypeScript; Vite's native config loader notice is noise here.
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= 'true';
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  const configFile = join(root, 'vite.config.ts');
  const { build, preview } = await import('vite');
  const why = staleReason();
  if (why) {
    log(`geoshard: building the explorer into dist/ (${why}); this takes about half a minute...`);
    const t0 = performance.now();
    await build({ root, configFile, logLevel: 'warn', clearScreen: false });
    log(`geoshard: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const server = await preview({ root, configFile, clearScreen: false, ...(port ? { preview: { port } } : {}), plugins: [await servedFilesPlugin(files, page, join(root, 'dist', 'app'))] });
  const address = server.httpServer.address();
  const bound = typeof address === 'object' && address ? address.port : server.config.preview.port;
  return { url: `http://127.0.0.1:${bound}/`, close: () => server.close() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let server;
  try {
    server = await startExplorer();
  } catch (e) {
    console.error(`geoshard: ${e.message}.`);
    process.exit(1);
  }
  console.log(`geoshard explorer: ${server.url}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
