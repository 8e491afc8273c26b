/**
 * PUT and DELETE under /api/restaurants/: the write endpoints, off unless the server runs with
 * GEOSHARD_WRITES=1. Every check that needs no cluster comes first (writes enabled, loopback
 * peer, the page's own Origin, path and method, ids, body: wire/writes.ts), then the drift guard
 * and the engine's routing, then the write through the package's writer (geoshard/opensearch
 * SampleIndexer) and the read-back of where each owner's copy landed.
 */
import type { ShardRef } from '../../core/index.ts';
import { GeoIndexError, type DeleteResult, type PutResult } from '../../opensearch/indexer.ts';
import { SampleIndexer } from '../../opensearch/sampleIndexer.ts';
import { MAX_WRITE_BODY_BYTES, ParamError, parseDishBody, parseRestaurantBody, parseWriteId, type WriteAck, type WriteAnswer } from '../wire.ts';
import type { ApiContext } from './context.ts';
import { errorResult, isLoopback, type ApiResult } from './http.ts';
import { boundaryHead, unusable } from './load.ts';

/** One write request as the API sees it (LiveApi.handle builds it from the HTTP request). */
export interface WriteRequest {
  method: string;
  /** The URL path, still percent-encoded. */
  path: string;
  /** The peer's address (socket.remoteAddress). */
  peer: string | undefined;
  /** The Origin and Host headers, when sent. */
  origin: string | undefined;
  host: string | undefined;
  /** The body as text; null when it was larger than MAX_WRITE_BODY_BYTES. */
  body: string | null;
}

/** Writes answers the write endpoints of one API, with one writer for its index (made on the first write). */
export class Writes {
  /** The writer of the index (made on the first write). */
  private indexer: SampleIndexer | null = null;

  /**
   * `enabled`: whether the write endpoints answer (else 403); `retryMs`: how long a write refused
   * with 429 or a write block is retried before the API answers 429 (ms).
   */
  constructor(private readonly api: ApiContext, readonly enabled: boolean, private readonly retryMs: number) {}

  /**
   * answer answers one write request (PUT/DELETE under /api/restaurants/).
   * Every check that needs no cluster comes first, in this order: writes
   * enabled, loopback peer, Origin, path and method, ids, body; then the
   * drift guard (no write into an index made for another boundary file), then
   * the write through SampleIndexer and the read-back of where each copy landed.
   */
  async answer(w: WriteRequest): Promise<ApiResult<object>> {
    const api = this.api;
    const refuse = (httpStatus: number, status: string, message: string, param?: string): ApiResult => ({ httpStatus, body: { status, error: { ...(param ? { param } : {}), message } } });
    if (!this.enabled) return refuse(403, 'forbidden', 'writes are off on this server: start it with GEOSHARD_WRITES=1 (e.g. "GEOSHARD_WRITES=1 npm start") to enable PUT and DELETE on /api/restaurants');
    if (!isLoopback(w.peer)) return refuse(403, 'forbidden', `writes are answered only on loopback (127.0.0.0/8, ::1); this request came from ${JSON.stringify(w.peer ?? 'an unknown peer')}`);
    if (w.origin !== undefined && w.origin !== `http://${w.host ?? ''}`) {
      return refuse(403, 'forbidden', `Origin ${JSON.stringify(w.origin)} is not this page's own (http://${w.host ?? '?'}): writes are refused from other sites`);
    }
    const route = parseWritePath(w.path);
    if ('error' in route) return refuse(route.httpStatus, route.httpStatus === 404 ? 'error' : 'invalid', route.error, route.param);
    const allowed = route.dishId === undefined ? ['PUT', 'DELETE'] : ['PUT'];
    if (!allowed.includes(w.method)) return { httpStatus: 405, body: { status: 'error', error: { message: `${w.method} is not allowed on ${route.dishId === undefined ? '/api/restaurants/:id' : '/api/restaurants/:id/dishes/:dishId'}: expected ${allowed.join(' or ')}` } }, headers: { allow: allowed.join(', ') } };
    let id: string;
    let dishId: string | undefined;
    try {
      id = parseWriteId('id', route.id);
      if (route.dishId !== undefined) dishId = parseWriteId('dishId', route.dishId);
    } catch (e) {
      if (e instanceof ParamError) return refuse(400, 'invalid', e.message, e.param);
      throw e;
    }
    let body: unknown;
    if (w.method === 'PUT') {
      if (w.body === null) return refuse(400, 'invalid', `the body is larger than ${MAX_WRITE_BODY_BYTES} bytes: send one JSON object`, 'body');
      if (w.body.trim() === '') return refuse(400, 'invalid', `the body is missing: send a JSON object such as ${dishId === undefined ? '{"name":"Blue Fig","lat":37.7749,"lng":-122.4194}' : '{"name":"Fig salad","price_cents":1299}'}`, 'body');
      try {
        body = JSON.parse(w.body);
      } catch (e) {
        return refuse(400, 'invalid', `the body is not JSON (${(e as Error).message}): send one JSON object`, 'body');
      }
      try {
        body = dishId === undefined ? parseRestaurantBody(body) : parseDishBody(body);
      } catch (e) {
        if (e instanceof ParamError) return refuse(400, 'invalid', e.message, e.param);
        throw e;
      }
    }
    const l = api.routing();
    if ('error' in l) return unusable(l);
    const head = boundaryHead(l.router.file);
    // The guards every endpoint passes: an engine that sends some shard name to another shard
    // than the file says would put the documents where routed searches do not look. The pipeline
    // is not asked: the writer routes each write itself (GeoIndexer sets each copy's routing).
    const admitted = await api.guards.admit(l, head, { pipeline: false, refusedToo: 'Writes are refused too.' });
    if ('refused' in admitted) return admitted.refused;
    this.indexer ??= new SampleIndexer(api.client.os, l.router.file.index, { metaTtlMs: 0, retry: { budgetMs: this.retryMs } });
    const indexer = this.indexer;
    try {
      if (w.method === 'DELETE') {
        const d = await indexer.deleteRestaurant(id);
        return { httpStatus: 200, body: await this.writeAnswer(indexer, 'deleted', 'restaurant', id, id, d) };
      }
      if (dishId === undefined) {
        const b = body as ReturnType<typeof parseRestaurantBody>;
        const p = await indexer.putRestaurant({ id, name: b.name, lat: b.lat, lng: b.lng, cuisines: b.cuisines, priceLevel: b.price_level });
        return { httpStatus: 200, body: await this.writeAnswer(indexer, 'written', 'restaurant', id, id, p) };
      }
      const b = body as ReturnType<typeof parseDishBody>;
      const p = await indexer.putDish(id, { id: dishId, name: b.name, cuisine: b.cuisine, priceCents: b.price_cents, calories: b.calories, diets: b.diets, allergens: b.allergens });
      return { httpStatus: 200, body: await this.writeAnswer(indexer, 'written', 'dish', dishId, id, p) };
    } catch (e) {
      if (!(e instanceof GeoIndexError)) return errorResult(head, e, api.client.url);
      switch (e.code) {
        case 'not-found':
          return { httpStatus: 404, body: { status: 'not-found', ...head, error: { message: e.message } } };
        case 'conflict':
          return { httpStatus: 400, body: { status: 'invalid', ...head, error: { param: dishId === undefined ? 'id' : 'dishId', message: e.message } } };
        case 'busy':
          return { httpStatus: 429, body: { status: 'busy', ...head, error: { message: `${e.message}. Retry after ${Math.ceil((e.retryAfterMs ?? 1000) / 1000)} s: nothing was lost.` } }, headers: { 'retry-after': String(Math.ceil((e.retryAfterMs ?? 1000) / 1000)) } };
        case 'no-index':
          return { httpStatus: 503, body: { status: 'unavailable', ...head, error: { message: e.message } } };
        case 'no-meta':
          return { httpStatus: 409, body: { status: 'drift', ...head, error: { message: e.message } } };
        default:
          return { httpStatus: 502, body: { status: 'error', ...head, error: { message: e.message } } };
      }
    }
  }

  /** writeAnswer builds a WriteAnswer, asking the engine where each owner's copy is (or, for a delete, where its routing goes). */
  private async writeAnswer(indexer: SampleIndexer, status: WriteAnswer['status'], kind: WriteAnswer['kind'], id: string, restaurantId: string, r: PutResult | DeleteResult): Promise<WriteAnswer> {
    const read = r.read;
    const mine = r.results.find((x) => x.id === id && x.action === (status === 'deleted' ? 'delete' : 'index'));
    const acknowledged: WriteAck[] = [];
    const l = this.api.routing();
    const router = 'router' in l ? l.router : null;
    for (const o of r.owners) {
      const item = mine?.items.find((i) => i.routing === o.name);
      const at = status === 'deleted' ? await indexer.shardOfRouting(o.name) : await indexer.locate(id, o.name);
      acknowledged.push({ routing: o.name, shard: at?.shard ?? -1, node: at?.node ? await this.api.cluster.nodeName(at.node, router) : null, result: (item?.result ?? 'not_found') as WriteAck['result'] });
    }
    const role = (o: ShardRef): 'read' | 'write' => (read && o.name === read.name ? 'read' : 'write');
    return {
      status,
      kind,
      id,
      restaurantId,
      location: { lat: r.lat ?? 0, lng: r.lng ?? 0 },
      cell: r.cell ?? '',
      core: read ? { name: read.name, shard: read.shard } : { name: '', shard: -1 },
      owners: r.owners.map((o) => ({ name: o.name, shard: o.shard, role: role(o) })),
      acknowledged,
      dishes: r.dishes,
      epoch: r.epoch,
    };
  }
}

/** parseWritePath splits /api/restaurants/:id[/dishes/:dishId] into its (percent-decoded) ids, or says what is wrong. */
function parseWritePath(path: string): { id: string; dishId?: string } | { error: string; param?: string; httpStatus: number } {
  const parts = path.split('/').slice(3);
  const expected = 'expected /api/restaurants/:id or /api/restaurants/:id/dishes/:dishId';
  if (parts.length !== 1 && !(parts.length === 3 && parts[1] === 'dishes')) return { error: `${path} is not a write endpoint: ${expected}`, httpStatus: 404 };
  const dec = (raw: string, param: 'id' | 'dishId'): string | { error: string; param: string; httpStatus: number } => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return { error: `${param} ${JSON.stringify(raw)} is not valid percent-encoding: expected 1 to 64 characters of A-Z, a-z, 0-9, "_" and "-"`, param, httpStatus: 400 };
    }
  };
  const id = dec(parts[0], 'id');
  if (typeof id !== 'string') return id;
  if (parts.length === 1) return { id };
  const dishId = dec(parts[2], 'dishId');
  if (typeof dishId !== 'string') return dishId;
  return { id, dishId };
}
