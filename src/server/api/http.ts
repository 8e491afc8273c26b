/**
 * The live API's HTTP plumbing, shared by every endpoint family: the answer before it is written
 * (ApiResult), reading a request body with a size limit, the checks on who may ask (loopback
 * peer, the page's own Origin), writing the JSON answer, and turning a failure into an answer
 * (errorResult: OpenSearch unreachable, a shard lost, a refused query). The routing of requests
 * to the endpoints is LiveApi.handle (src/server/api.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ParamError } from '../wire.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

/** An API answer before it is written: HTTP status and JSON body. */
export interface ApiResult<B extends object = Record<string, unknown>> {
  httpStatus: number;
  body: B;
  /** Extra response headers (Allow, Retry-After). */
  headers?: Record<string, string>;
}

/** invalid is the 400 of a ParamError (`param` names the field at fault); any other error is thrown again. */
export function invalid(e: unknown): ApiResult {
  if (e instanceof ParamError) return { httpStatus: 400, body: { status: 'invalid', error: { param: e.param, message: e.message } } };
  throw e;
}

/** safeDecode percent-decodes a path part, or returns it as it is when it is not valid percent-encoding (the id check then names it). */
export function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** isLoopback says whether a peer address is on loopback: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopback(addr: string | undefined): boolean {
  if (!addr) return false;
  const v4 = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** readBody reads a request body as UTF-8, or null once it passes `limit` bytes (the rest is drained, not kept). */
export function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** send writes a JSON answer (no body for HEAD), never cached. */
export function send(res: ServerResponse, status: number, body: unknown, headOnly = false, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(headOnly ? undefined : text);
}

/**
 * errorResult turns a failure into an answer. `where` (a sentence naming the
 * nodes that held the shards) and `nodeName` (node id → name) make a search
 * none of whose shards answered say which node it lost.
 */
export function errorResult(head: Record<string, unknown>, e: unknown, url: string, where = '', nodeName: (id: string) => string = (id) => id): ApiResult {
  if (e instanceof OpenSearchError) {
    const none = e.noShardAnswered;
    if (none && (none.length > 0 || where)) {
      const shards = none.map((f) => `shard ${f.shard}${f.node ? ` (node ${nodeName(f.node)})` : ''}: ${f.reason}`).join('; ');
      return {
        httpStatus: 503,
        body: { status: 'unavailable', ...head, error: { message: `No shard asked could answer, so there are no results${shards ? `: ${shards}` : ''}${where ? `; ${where}` : ''}. Wait for the node to return or a replica to be promoted.` } },
      };
    }
    if (e.unavailable) {
      return { httpStatus: 503, body: { status: 'unavailable', ...head, error: { message: `${e.message}. No results: start the node ("npm run cluster:start") or check OPENSEARCH_URL (${url}).` } } };
    }
    if (e.status === 404 && e.type === 'index_not_found_exception') {
      return { httpStatus: 503, body: { status: 'unavailable', ...head, error: { message: `${e.message}: run "npx geoshard seed"` } } };
    }
    return { httpStatus: 502, body: { status: 'error', ...head, error: { message: e.message } } };
  }
  return { httpStatus: 500, body: { status: 'error', ...head, error: { message: `internal error: ${(e as Error)?.message ?? String(e)}` } } };
}
