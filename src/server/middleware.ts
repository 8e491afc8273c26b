/**
 * The live API as connect-style middleware, for the explorer's server
 * (vite.config.ts mounts it on /api/* in `npm start`). The API answers even
 * when OpenSearch is down (status "unavailable") or the boundary file is
 * missing, so the Live panel can say why.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LiveApi, type ApiOptions } from './api.ts';

/** A connect-style handler. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * createApiMiddleware builds the API (boundary file from $GEOSHARD_BOUNDARIES
 * or data/boundaries.json; OpenSearch from $OPENSEARCH_URL or the local node),
 * runs the first drift check and logs its outcome, and returns the handler.
 * Requests outside /api/ go to `next`.
 */
export async function createApiMiddleware(opts: ApiOptions = {}): Promise<Middleware> {
  const api = new LiveApi(opts);
  const first = await api.start();
  if ('error' in first) console.warn(`[geoshard] live API: ${first.error}`);
  else if (first.status !== 'ok') console.warn(`[geoshard] live API: ${first.message}`);
  else console.log(`[geoshard] live API on /api: index "${first.index}" on ${api.client.url}, boundary file ${first.fileHash.slice(0, 12)} (version ${first.fileVersion})`);
  api.traffic.startRecorder();
  return (req, res, next) => void api.handle(req, res, next);
}
