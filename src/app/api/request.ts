/**
 * The explorer's one way to ask the live API (src/server/api.ts): the request itself
 * (requestJson: GET, or a write's method with its JSON body; the client's deadline; network
 * errors), the failure every endpoint maps a refusal to (LiveFailure, one message a person can
 * act on). The defensive readers the endpoint modules share are in read.ts. Each endpoint family has its
 * own module beside this one: search.ts (GET /api/search), status.ts (GET /api/status),
 * measure.ts (POST /api/measure), writes.ts (PUT/DELETE /api/restaurants/:id), documents.ts
 * (GET /api/documents/:id) and migration.ts (the `migration` section of /api/status).
 * No DOM, no store: the features' drivers and actions do the asking.
 *
 * The API never sends credentials (the server strips user:password from the node URL);
 * status.ts strips them again, so none can reach the page.
 */
import type { SearchPlacement } from '../../server/wire';
import { isObj, ShapeError } from './read';

/** Why there is no result. */
export type LiveFailureKind =
  /** /api is not served here (a static build, or the API module failed to load). */
  | 'not-mounted'
  /** The explorer's own server does not answer. */
  | 'network'
  /** No answer within the client's deadline. */
  | 'timeout'
  /** 400: a parameter is wrong. */
  | 'invalid'
  /** 409: the index was written with another boundary file. */
  | 'drift'
  /** 503: OpenSearch does not answer or the index does not exist. */
  | 'unavailable'
  /** 500/502: OpenSearch refused the query or the server's boundary file is unusable. */
  | 'error'
  /** A JSON answer of an unexpected shape. */
  | 'bad-response'
  /** 403: a write refused (writes disabled, a foreign Origin, a peer not on loopback). */
  | 'forbidden'
  /** 404 with an answer: a write named an id the index does not hold. */
  | 'not-found'
  /** 429: retryable (a migration's cutover window); `retryAfterS` says when. */
  | 'busy';

export interface LiveFailure {
  kind: LiveFailureKind;
  /** HTTP status, or null when no answer arrived. */
  httpStatus: number | null;
  /** One or two sentences for the panel. */
  message: string;
  /** The parameter at fault (invalid). */
  param?: string;
  /** Seconds to wait before retrying (busy: the Retry-After header), when the server said. */
  retryAfterS?: number;
  /** The shards a 503 lost and the nodes that held them (no asked shard answered). */
  placement?: SearchPlacement;
  /** Both hashes (drift, or an unavailable index). */
  drift?: { status: string; indexHash: string | null; fileHash: string | null; indexVersion: number | null; fileVersion: number | null };
}


/** An answer read: its value, or the failure to show instead. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; failure: LiveFailure };

/** badResponse is the failure of an answer the explorer does not understand, saying how (`message`). */
export const badResponse = (httpStatus: number, message: string): { ok: false; failure: LiveFailure } => ({ ok: false, failure: { kind: 'bad-response', httpStatus, message } });

/**
 * shaped returns what `read` makes of an answer, or, where it throws a ShapeError (a field the
 * panel needs is missing), the bad-response failure "The live API's <what> is not understood: …".
 */
export function shaped<T>(httpStatus: number, what: string, read: () => Parsed<T>): Parsed<T> {
  try {
    return read();
  } catch (e) {
    if (e instanceof ShapeError) return badResponse(httpStatus, `The live API's ${what} is not understood: ${e.message}.`);
    throw e;
  }
}

/** The message when /api answers with something that is not the live API. */
export const NOT_MOUNTED_MESSAGE =
  'The live API is not served here: this page came from a server without /api (a static build, or the API failed to load: see the server log). Serve the explorer with `npm start`; the rest of the explorer works without it.';

/** The client's own deadline per request (ms): above the server's (two searches of 5 s + 5 s each). */
export const LIVE_TIMEOUT_MS = 30_000;

/** A write request's method and JSON body (requestJson sends GET without one). */
export interface JsonRequest {
  method: 'PUT' | 'DELETE' | 'POST';
  /** Sent as application/json; absent: no body. */
  json?: unknown;
}

/**
 * requestJson asks a URL (GET, or `request`'s method with its JSON body) and
 * returns its status, its JSON body (undefined when the body is not JSON: the
 * SPA fallback's index.html when /api is not mounted) and its Retry-After
 * header when sent. Rejects with a LiveFailure for network errors and the
 * deadline; rethrows AbortError when `signal` aborts (a stale request).
 */
export async function requestJson(
  url: string,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = LIVE_TIMEOUT_MS,
  request?: JsonRequest,
): Promise<{ httpStatus: number; body: unknown; retryAfter?: string }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const onAbort = () => deadline.abort();
  signal.addEventListener('abort', onAbort);
  try {
    const init: RequestInit = { headers: { accept: 'application/json' }, signal: deadline.signal, cache: 'no-store' };
    if (request) {
      init.method = request.method;
      if (request.json !== undefined) {
        init.headers = { accept: 'application/json', 'content-type': 'application/json' };
        init.body = JSON.stringify(request.json);
      }
    }
    const res = await fetchImpl(url, init);
    const type = res.headers.get('content-type') ?? '';
    const retryAfter = res.headers.get('retry-after') ?? undefined;
    const text = await res.text();
    let body: unknown;
    if (type.includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return retryAfter === undefined ? { httpStatus: res.status, body } : { httpStatus: res.status, body, retryAfter };
  } catch (e) {
    if (signal.aborted) throw e;
    if (deadline.signal.aborted) throw failure('timeout', null, `The live API did not answer within ${timeoutMs / 1000} s: no result (nothing is shown as complete).`);
    throw failure('network', null, `The explorer's server does not answer (${(e as Error).message}): is \`npm start\` still running?`);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function failure(kind: LiveFailureKind, httpStatus: number | null, message: string): LiveFailure {
  return { kind, httpStatus, message };
}

/** isLiveFailure tells a LiveFailure from other errors. */
export function isLiveFailure(e: unknown): e is LiveFailure {
  return isObj(e) && typeof e.kind === 'string' && typeof e.message === 'string' && 'httpStatus' in e;
}

/**
 * asked runs one request and reads its answer with `read`; resolves to the reading or to the
 * request's failure (network, deadline); rejects only when `signal` aborts (a stale request).
 */
export async function asked<T>(
  url: string,
  signal: AbortSignal,
  read: (httpStatus: number, body: unknown, retryAfter?: string) => Parsed<T>,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = LIVE_TIMEOUT_MS,
  request?: JsonRequest,
): Promise<Parsed<T>> {
  try {
    const r = await requestJson(url, signal, fetchImpl, timeoutMs, request);
    return read(r.httpStatus, r.body, r.retryAfter);
  } catch (e) {
    if (isLiveFailure(e)) return { ok: false, failure: e };
    throw e;
  }
}
