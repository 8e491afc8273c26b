/**
 * The installed explorer's server: the entry of the companion package geoshard-explorer
 * (scripts/build-explorer.mjs bundles it with the built app). `geoshard explore` loads it when
 * the package is installed beside geoshard (src/cli/commands/explore.ts); in a checkout,
 * scripts/start.mjs serves the same app with Vite's preview server instead.
 *
 * A plain node:http server on 127.0.0.1: the files the person named (servedFiles), the build and
 * nothing else of the disk (onlyTheBuild, buildFiles; src/server/staticFiles.ts, shared with
 * Vite's preview), and the live API on /api (src/server/middleware.ts, as vite.config.ts mounts
 * it). Same origin for the page and /api, so no CORS headers. Node only.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFiles, onlyTheBuild, servedFiles, type Handler } from './staticFiles.ts';
import { env as readEnv } from '../cluster/env.ts';

/** Options of startExplorer; the same shape scripts/start.mjs startExplorer takes. */
export interface ExplorerOptions {
  /** The port on 127.0.0.1 (absent or 0: $PORT, else 5173). */
  port?: number;
  /** URL path → absolute path of a file served as it is (the boundary and cells files). */
  files?: Record<string, string>;
  /** Written into the app's page: the files it opens instead of the bundled data. */
  page?: object | null;
  /** Set in this process before the live API starts (GEOSHARD_BOUNDARIES, GEOSHARD_CONFIG, OPENSEARCH_URL). */
  env?: Record<string, string>;
  /** Where progress lines go (default console.log). */
  log?: (line: string) => void;
}

/** A running explorer: its address and how to stop it. */
export interface RunningExplorer {
  url: string;
  close: () => Promise<void>;
}

/**
 * startExplorer serves the built app in `appDir` (the folder holding index.html and assets/;
 * default: app/ beside this module, the companion package's layout) on 127.0.0.1. Resolves once
 * it listens; rejects with an Error saying the port is already in use when it is, or that the
 * build is missing.
 */
export async function startExplorer({ port, files = {}, page = null, env = {}, log = console.log }: ExplorerOptions = {}, appDir = fileURLToPath(new URL('./app/', import.meta.url))): Promise<RunningExplorer> {
  const outDir = resolve(appDir);
  if (!existsSync(join(outDir, 'index.html'))) throw new Error(`the explorer's build is missing (${join(outDir, 'index.html')}): reinstall geoshard-explorer`);
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  // The API module (and with it the OpenSearch client, an optional peer) loads only here. Without
  // the client the explorer still shows the files; /api answers 503 saying what to install.
  const { createApiMiddleware } = await import('./middleware.ts');
  const { MissingPeerError } = await import('../data/optionalPeer.ts');
  let api: Handler;
  try {
    api = await createApiMiddleware();
  } catch (e) {
    if (!(e instanceof MissingPeerError)) throw e;
    log(`geoshard: live mode is off: ${e.message}`);
    const body = JSON.stringify({ status: 'unavailable', error: { message: `live mode is off: ${e.message}` } });
    api = (_req, res) => {
      res.statusCode = 503;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(body);
    };
  }
  const chain: Handler[] = [servedFiles(files, page, outDir), onlyTheBuild(outDir, null), (req, res, next) => (req.url?.startsWith('/api/') ? api(req, res, next) : next()), buildFiles(outDir)];
  const server: Server = createServer((req, res) => {
    let k = 0;
    const next = (): void => {
      const h = chain[k++];
      if (!h) {
        res.statusCode = 404;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end('Not found');
        return;
      }
      h(req, res, next);
    };
    next();
  });
  const wanted = port || Number(readEnv('PORT') || 5173);
  await new Promise<void>((done, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) => fail(e.code === 'EADDRINUSE' ? new Error(`port ${wanted} is already in use`) : e));
    server.listen(wanted, '127.0.0.1', () => done());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : wanted;
  log(`geoshard: explorer (geoshard-explorer) serving ${outDir}`);
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
