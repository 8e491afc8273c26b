/**
 * What the explorer's server answers besides /api: the built app and the files the person named.
 * One place for both servers that serve the explorer: `npm start` / `geoshard explore` in a
 * checkout (Vite's preview server: vite.config.ts mounts onlyTheBuild, scripts/start.mjs mounts
 * servedFiles) and the installed companion package geoshard-explorer (src/server/explorerServer.ts,
 * a plain node:http server). Connect-style middlewares; Node only.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';

/** A connect-style handler. */
export type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The content type a served file is answered with, by its extension (others: application/octet-stream). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** contentTypeOf returns the content type of a path by its extension. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(text);
}

/**
 * onlyTheBuild answers a request for a file that is not in the build (`outDir`) with a plain
 * 404, instead of the SPA fallback page: a link to `/src/...`, `/package.json` or `/@fs/...`
 * gets "Not found", never a page, a source or a path on the server's disk. Paths without a file
 * extension still go on (the app: its routes are query strings on `/`), as do /api/ paths. With
 * `dataDir`, boundary and cells files in that folder stay reachable as /data/<name>.json|csv (a
 * checkout's data/, so `?boundaries=/data/<name>.json` opens a file made with the CLI); without
 * it, /data/ is not served at all.
 */
export function onlyTheBuild(outDir: string, dataDir: string | null): Handler {
  return (req, res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      return answer(res, 400, 'Bad request: the path is not valid percent-encoding');
    }
    const data = dataDir === null ? null : /^\/data\/([\w-][\w.-]*\.(json|csv))$/.exec(path);
    if (data && dataDir !== null) {
      const file = resolve(dataDir, data[1]);
      if (!existsSync(file) || !statSync(file).isFile()) return answer(res, 404, 'Not found');
      res.setHeader('content-type', contentTypeOf(file));
      res.setHeader('cache-control', 'no-cache');
      return void createReadStream(file).pipe(res);
    }
    if (/^\/(src|node_modules|data|scripts|e2e|@[a-z]+)(\/|$)/.test(path)) return answer(res, 404, 'Not found');
    if (path.startsWith('/api/') || !path.split('/').pop()!.includes('.')) return next();
    const file = resolve(outDir, '.' + path);
    if (!file.startsWith(outDir + sep) || !existsSync(file) || !statSync(file).isFile()) return answer(res, 404, 'Not found');
    next();
  };
}

/**
 * servedFiles answers GET `path` with the file `files[path]` (absolute paths on disk; a path
 * ending .json or .csv is answered with that content type): nothing else of the disk is
 * reachable through it. With `page` (an object), the app's page (/ and /index.html, read from
 * `outDir`) carries it as JSON in <script type="application/json" id="geoshard-served"> (read by
 * src/app/shell/loadData.ts servedData), so the bare URL opens the served files. Put it before
 * onlyTheBuild.
 */
export function servedFiles(files: Readonly<Record<string, string>>, page: object | null, outDir: string): Handler {
  let html: string | null = null;
  const pageHtml = () => {
    // Read once, after the build: a string of JSON in a script element, "<" escaped so no value closes it.
    html ??= readFileSync(resolve(outDir, 'index.html'), 'utf8').replace(
      '</head>',
      `  <script type="application/json" id="geoshard-served">${JSON.stringify(page).replace(/</g, '\\u003c')}</script>\n  </head>`,
    );
    return html;
  };
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = Object.hasOwn(files, path) ? files[path] : null;
    if (file) {
      res.setHeader('content-type', contentTypeOf(path));
      res.setHeader('cache-control', 'no-cache');
      if (req.method === 'HEAD') return void res.end();
      return void createReadStream(file).on('error', () => res.end()).pipe(res);
    }
    if (!page || (path !== '/' && path !== '/index.html')) return next();
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : pageHtml());
  };
}

/**
 * buildFiles serves the files of the build (`outDir`) that onlyTheBuild let through, and the
 * app's page for a path without an extension (the SPA fallback, as Vite's preview does). Hashed
 * assets (/assets/) are cached for a year, everything else revalidated. Put it last.
 */
export function buildFiles(outDir: string): Handler {
  const index = resolve(outDir, 'index.html');
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const named = resolve(outDir, '.' + path);
    const file = path.split('/').pop()!.includes('.') ? named : index;
    if (!file.startsWith(outDir + sep) || !existsSync(file) || !statSync(file).isFile()) return answer(res, 404, 'Not found');
    res.setHeader('content-type', contentTypeOf(file));
    res.setHeader('cache-control', path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.setHeader('content-length', String(statSync(file).size));
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).on('error', () => res.end()).pipe(res);
  };
}
