/**
 * The browser side of the live API's writes (src/server/api.ts, enabled with
 * GEOSHARD_WRITES=1): the request of a restaurant put and of a delete, the
 * answer read defensively into a typed value, and every refusal mapped to a
 * LiveFailure carrying the server's own message (and the field at fault).
 * Requests go through request.ts's requestJson: one protocol for reads and
 * writes. No DOM, no store: write/writeActions.ts does the asking.
 *
 *   PUT    /api/restaurants/:id   JSON { name, lat, lng, cuisines?, price_level? }
 *   DELETE /api/restaurants/:id   (the restaurant with all its dishes)
 */
import { VOCABULARY, WRITE_ID_RE, PRICE_LEVEL_RANGE, type WriteAnswer, type WriteAck, type RestaurantBody } from '../../server/wire';
import { isLiveFailure, requestJson, badResponse, NOT_MOUNTED_MESSAGE, type LiveFailure, type Parsed } from './request';
import { isObj, str } from './read';

export type { WriteAnswer, RestaurantBody };

/** The cuisines a restaurant may list (the API's vocabulary). */
export const CUISINES: readonly string[] = VOCABULARY.cuisine;

/** Price levels a restaurant may have: the integers of PRICE_LEVEL_RANGE (1..4). */
export const PRICE_LEVELS: readonly number[] = Array.from({ length: PRICE_LEVEL_RANGE[1] - PRICE_LEVEL_RANGE[0] + 1 }, (_, i) => PRICE_LEVEL_RANGE[0] + i);

/** The client's deadline for one write, ms (a migration's cutover may hold a write back briefly). */
export const WRITE_TIMEOUT_MS = 30_000;

/**
 * newRestaurantId returns a fresh id for a restaurant placed in the explorer:
 * `ui-` and 12 random base-36 characters (about 62 bits), a valid API id.
 * `random` returns uniform floats in [0, 1) (tests pass a seeded one).
 */
export function newRestaurantId(random: () => number = Math.random): string {
  let s = 'ui-';
  for (let i = 0; i < 12; i++) s += Math.floor(random() * 36).toString(36);
  return s;
}

/** restaurantUrl returns the API path of a restaurant; throws RangeError naming the id when it is not a valid id. */
export function restaurantUrl(id: string, base = '/api/restaurants'): string {
  if (!WRITE_ID_RE.test(id)) throw new RangeError(`id ${JSON.stringify(id)} is invalid: expected 1 to 64 characters of A-Z, a-z, 0-9, _ and -`);
  return `${base}/${id}`;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInt = (v: unknown): v is number => isNum(v) && Number.isInteger(v);

/** A failure of the answer's shape: names what is missing. */
function badShape(httpStatus: number, what: string): Parsed<WriteAnswer> {
  return badResponse(httpStatus, `The live API's write answer is not understood: ${what}.`);
}

const ACK_RESULTS: readonly string[] = ['created', 'updated', 'deleted', 'not_found'] satisfies readonly WriteAck['result'][];

const REFUSALS: Record<string, LiveFailure['kind']> = {
  invalid: 'invalid',
  forbidden: 'forbidden',
  'not-found': 'not-found',
  drift: 'drift',
  busy: 'busy',
  unavailable: 'unavailable',
  error: 'error',
};

const FALLBACK: Partial<Record<LiveFailure['kind'], string>> = {
  forbidden: 'The live API refused the write: writes are off unless the server runs with GEOSHARD_WRITES=1 (GEOSHARD_WRITES=1 npm start).',
  'not-found': 'The live API holds no restaurant with this id.',
  drift: 'Boundary drift: the index was written with another boundary file; every write is refused.',
  busy: 'The live API is busy (a migration’s cutover window): try again in a moment.',
  unavailable: 'OpenSearch is unavailable: start the node with `npm run cluster:start`, or check OPENSEARCH_URL.',
};

/**
 * readWrite reads a write's answer: HTTP status, parsed JSON body (undefined
 * when not JSON) and the Retry-After header. A refusal becomes a LiveFailure
 * with the server's message; for 400 the message names the field (`param`)
 * even when the server's text does not start with it. A 200 becomes a
 * WriteAnswer whose every field the panel reads was checked.
 */
export function readWrite(httpStatus: number, body: unknown, retryAfter?: string): Parsed<WriteAnswer> {
  if (!isObj(body) || typeof body.status !== 'string') {
    if (httpStatus === 404 || httpStatus === 405 || httpStatus === 200) return { ok: false, failure: { kind: 'not-mounted', httpStatus, message: NOT_MOUNTED_MESSAGE } };
    return badResponse(httpStatus, `The live API answered the write with HTTP ${httpStatus} without a status: this is not an answer the explorer understands.`);
  }
  const kind = REFUSALS[body.status];
  if (kind) {
    const error = isObj(body.error) ? body.error : {};
    const param = str(error.param) || undefined;
    let message = str(error.message) || FALLBACK[kind] || `The live API refused the write (HTTP ${httpStatus}, ${body.status}).`;
    if (param && !message.includes(param)) message = `${param}: ${message}`;
    const f: LiveFailure = { kind, httpStatus, message, ...(param ? { param } : {}) };
    const wait = Number(retryAfter);
    if (kind === 'busy' && retryAfter !== undefined && Number.isFinite(wait) && wait >= 0) f.retryAfterS = wait;
    return { ok: false, failure: f };
  }
  if (body.status !== 'written' && body.status !== 'deleted') {
    return badShape(httpStatus, `status ${JSON.stringify(body.status)}; expected written, deleted, or a refusal (invalid, forbidden, not-found, drift, busy, unavailable, error)`);
  }
  if (httpStatus !== 200) return badShape(httpStatus, `HTTP ${httpStatus} with status ${body.status}; expected HTTP 200`);
  const b = body;
  if (b.kind !== 'restaurant' && b.kind !== 'dish') return badShape(httpStatus, 'kind is neither restaurant nor dish');
  if (typeof b.id !== 'string' || typeof b.restaurantId !== 'string') return badShape(httpStatus, 'no id or restaurantId');
  if (!isObj(b.location) || !isNum(b.location.lat) || !isNum(b.location.lng)) return badShape(httpStatus, 'no location');
  if (typeof b.cell !== 'string') return badShape(httpStatus, 'no cell');
  if (!isObj(b.core) || typeof b.core.name !== 'string' || !isInt(b.core.shard)) return badShape(httpStatus, 'no core shard');
  const owners = Array.isArray(b.owners) ? b.owners : null;
  if (!owners || owners.length === 0 || !owners.every((o) => isObj(o) && typeof o.name === 'string' && isInt(o.shard) && (o.role === 'read' || o.role === 'write'))) {
    return badShape(httpStatus, 'owners is not a list of { name, shard, role }');
  }
  const acks = Array.isArray(b.acknowledged) ? b.acknowledged : null;
  if (!acks || !acks.every((a) => isObj(a) && typeof a.routing === 'string' && isInt(a.shard) && (a.node === null || typeof a.node === 'string') && ACK_RESULTS.includes(a.result as string))) {
    return badShape(httpStatus, 'acknowledged is not a list of { routing, shard, node, result }');
  }
  return {
    ok: true,
    value: {
      status: b.status,
      kind: b.kind,
      id: b.id,
      restaurantId: b.restaurantId,
      location: { lat: b.location.lat, lng: b.location.lng },
      cell: b.cell,
      core: { name: b.core.name, shard: b.core.shard },
      owners: owners.map((o) => ({ name: (o as Record<string, string>).name, shard: (o as Record<string, number>).shard, role: (o as Record<string, 'read' | 'write'>).role })),
      acknowledged: acks.map((a) => {
        const x = a as Record<string, unknown>;
        return { routing: x.routing as string, shard: x.shard as number, node: (x.node as string | null) ?? null, result: x.result as WriteAck['result'] };
      }),
      dishes: isInt(b.dishes) ? b.dishes : 0,
      epoch: isInt(b.epoch) ? b.epoch : null,
    } as WriteAnswer,
  };
}

/** send makes one write request and reads its answer; resolves to an answer or a failure (rejects only when aborted). */
async function send(url: string, method: 'PUT' | 'DELETE', json: unknown, signal: AbortSignal, fetchImpl: typeof fetch): Promise<Parsed<WriteAnswer>> {
  try {
    const { httpStatus, body, retryAfter } = await requestJson(url, signal, fetchImpl, WRITE_TIMEOUT_MS, { method, json });
    return readWrite(httpStatus, body, retryAfter);
  } catch (e) {
    if (isLiveFailure(e)) return { ok: false, failure: e };
    throw e;
  }
}

/** putRestaurant writes (creates or replaces) a restaurant; id must be a valid id (throws RangeError otherwise). */
export function putRestaurant(id: string, restaurant: RestaurantBody, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<Parsed<WriteAnswer>> {
  return send(restaurantUrl(id), 'PUT', restaurant, signal, fetchImpl);
}

/** deleteRestaurant deletes a restaurant and all its dishes; id must be a valid id (throws RangeError otherwise). */
export function deleteRestaurant(id: string, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<Parsed<WriteAnswer>> {
  return send(restaurantUrl(id), 'DELETE', undefined, signal, fetchImpl);
}
