/**
 * Write mode without a browser: the routing core's view of a point (settled
 * and during a migration, checked against the core's intermediateFile, the
 * path the server and `geoshard migrate` route with), the verdict on an
 * answer, the slice, and the requests (over a fake fetch that checks what is
 * sent and answers in the wire's shape).
 */
import { describe, it, expect, beforeEach } from 'vitest';
import { Router, ShardTable, cellAt, cellOrdinal, cellFromOrdinal, cellToken } from '../../core/index';
import { intermediateFile, type MigrationState } from '../../core/migrationState';
import { fileWithCuts } from '../../core/testutil';
import { parseRestaurantBody, WRITE_ID_RE, type MigrationStatus, type WriteAnswer } from '../../server/wire';
import { createAppStore } from '../shell/store';

/** A store of the test's own, made afresh before each test. */
let appStore = createAppStore();
const resetAppStore = () => void (appStore = createAppStore());
import { readStatus, type LiveStatus } from '../api/status';
import { coreRoute, routerFor, writeVerdict } from './coreRoute';
import { DEFAULT_NAME } from './writeSlice';
import { writeAvailability, writing, WRITES_OFF } from './availability';
import { bodyOf, deletePlaced, placeAt, submitDraft } from './writeActions';

const SF = { lat: 37.7749, lng: -122.4194 };
const sf = cellOrdinal(cellAt(SF.lat, SF.lng));
const tok = (o: number) => cellToken(cellFromOrdinal(o));
/** Three shards; San Francisco's cell is in the middle one, five cells from each edge. */
const FILE = fileWithCuts([sf - 5, sf + 5], 'gs-ui-write-unit');
const ROUTER = new Router(FILE);
const [, mid, last] = ROUTER.shards;

/** A migration moving San Francisco's range from the middle shard to the last, at `step`. */
function moving(step: MigrationStatus['moves'][number]['step'], base = FILE.hash): MigrationStatus {
  return {
    epoch: 3,
    base,
    target: 'f'.repeat(64),
    targetVersion: 2,
    startedAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:05.000Z',
    moves: [{ start: tok(sf - 5), end: tok(sf + 5), from: mid.name, to: last.name, fromShard: mid.shard, toShard: last.shard, step, copied: { restaurants: 0, dishes: 0 }, verified: null }],
  };
}

const status = (writes: LiveStatus['writes'], migration: MigrationStatus | null = null): LiveStatus => ({
  connection: { up: true, url: 'http://127.0.0.1:9200', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: 1, message: null },
  boundary: { index: FILE.index, hash: FILE.hash, version: 1, numberOfShards: 3, routing: null },
  index: null,
  drift: null,
  nodes: null,
  copies: null,
  writes,
  migration,
});

/** The answer a correct server gives for a restaurant at (lat, lng): its owners from `router`, each acknowledged on its own shard. */
function answerFor(router: ShardTable, id: string, lat: number, lng: number, status: WriteAnswer['status'] = 'written'): WriteAnswer {
  const read = router.readShard(lat, lng);
  const owners = router.writeShards(lat, lng).map((s) => ({ name: s.name, shard: s.shard, role: s.name === read.name ? ('read' as const) : ('write' as const) }));
  return {
    status,
    kind: 'restaurant',
    id,
    restaurantId: id,
    location: { lat, lng },
    cell: router.route(lat, lng).token,
    core: { name: read.name, shard: read.shard },
    owners,
    acknowledged: owners.map((o) => ({ routing: o.name, shard: o.shard, node: 'node-1', result: status === 'written' ? ('created' as const) : ('deleted' as const) })),
    dishes: 0,
    epoch: null,
  };
}

describe('the core’s routing of a placed restaurant', () => {
  it('names one owner on the settled file, the same as Router.route', () => {
    const c = coreRoute(ROUTER, SF.lat, SF.lng);
    expect(c.token).toBe(cellToken(cellAt(SF.lat, SF.lng)));
    expect(c.read).toEqual(mid);
    expect(c.writes).toEqual([mid]);
    expect(routerFor(FILE, ROUTER, null).router).toBe(ROUTER);
  });

  it('routes during a migration exactly as the core’s intermediate file does, at every step', () => {
    for (const step of ['pending', 'dual-write', 'copying', 'verified', 'switched', 'deleting', 'done'] as const) {
      const m = moving(step);
      const state: MigrationState = { epoch: m.epoch, base: m.base, target: m.target, targetFile: FILE, startedAt: m.startedAt, updatedAt: m.updatedAt, moves: m.moves.map(({ start, end, from, to, step, copied, verified }) => ({ start, end, from, to, step, copied, verified })) };
      const expected = new Router(intermediateFile(FILE, state));
      const { router, epoch } = routerFor(FILE, ROUTER, m);
      const c = coreRoute(router, SF.lat, SF.lng, epoch);
      expect(c.read.name, step).toBe(expected.readShard(SF.lat, SF.lng).name);
      expect(c.writes.map((w) => w.name), step).toEqual(expected.writeShards(SF.lat, SF.lng).map((w) => w.name));
      expect(c.epoch).toBe(3);
    }
    // While the range is copied, both owners are written and the old one is read.
    const copying = coreRoute(routerFor(FILE, ROUTER, moving('copying')).router, SF.lat, SF.lng);
    expect(copying.writes.map((w) => w.name)).toEqual([mid.name, last.name]);
    expect(copying.read.name).toBe(mid.name);
  });

  it('does not apply a migration of another base file, and says so', () => {
    const r = routerFor(FILE, ROUTER, moving('copying', 'a'.repeat(64)));
    expect(r.router).toBe(ROUTER);
    expect(r.note).toMatch(/migrating from boundary file aaaaaaaaaaaa, not the explorer's/);
  });
});

describe('the verdict on a write', () => {
  it('agrees when the API and OpenSearch name the core’s shard, one owner or two', () => {
    expect(writeVerdict(coreRoute(ROUTER, SF.lat, SF.lng), answerFor(ROUTER, 'r1', SF.lat, SF.lng))).toEqual({ agree: true, problems: [] });
    const during = routerFor(FILE, ROUTER, moving('switched')).router;
    const a = answerFor(during, 'r1', SF.lat, SF.lng);
    expect(a.owners).toHaveLength(2);
    expect(writeVerdict(coreRoute(during, SF.lat, SF.lng), a).agree).toBe(true);
  });

  it('disagrees, naming each difference, when OpenSearch holds the document on another shard', () => {
    const a = answerFor(ROUTER, 'r1', SF.lat, SF.lng);
    a.acknowledged[0] = { ...a.acknowledged[0], shard: last.shard };
    const v = writeVerdict(coreRoute(ROUTER, SF.lat, SF.lng), a);
    expect(v.agree).toBe(false);
    expect(v.problems).toEqual([`acknowledged: OpenSearch holds routing ${mid.name} on shard ${last.shard}, the core names shard ${mid.shard}`]);
  });

  it('disagrees when the API routed with another file (another core shard, a missing owner)', () => {
    const other = new Router(fileWithCuts([sf + 1, sf + 9], 'gs-ui-write-unit'));
    const v = writeVerdict(coreRoute(ROUTER, SF.lat, SF.lng), answerFor(other, 'r1', SF.lat, SF.lng));
    expect(v.agree).toBe(false);
    expect(v.problems.some((p) => p.startsWith('core shard:'))).toBe(true);
    // During a move the API must write both owners: one missing is a difference.
    const during = routerFor(FILE, ROUTER, moving('copying')).router;
    const a = answerFor(ROUTER, 'r1', SF.lat, SF.lng);
    expect(writeVerdict(coreRoute(during, SF.lat, SF.lng), a).problems).toEqual([`owners: the core writes to ${last.name} (shard ${last.shard}), the API did not`, `acknowledged: OpenSearch acknowledged nothing for routing ${last.name}`]);
  });
});

describe('the status Write mode reads', () => {
  it('reads writes.enabled and the migration from /api/status, null from a server that says neither', () => {
    const body = { connection: { status: 'up', url: 'http://127.0.0.1:9200' }, boundary: {}, drift: { status: 'ok', indexHash: FILE.hash }, writes: { enabled: true }, migration: moving('copying') };
    const s = readStatus(200, body);
    expect(s.ok && s.value.writes).toEqual({ enabled: true });
    expect(s.ok && s.value.migration).toEqual(moving('copying'));
    const old = readStatus(200, { connection: { status: 'up', url: 'x' }, boundary: {} });
    expect(old.ok && old.value.writes).toBeNull();
    expect(old.ok && old.value.migration).toBeUndefined();
  });
});

describe('the write slice', () => {
  beforeEach(() => {
    resetAppStore();
    appStore.getState().setBoundaries(FILE, ROUTER, 'test');
  });

  it('offers Write mode only when the API says writes are enabled, and says why not otherwise', () => {
    expect(writeAvailability({ phase: 'loading', status: null, failure: null, at: 0 }).state).toBe('unknown');
    expect(writeAvailability({ phase: 'ready', status: status({ enabled: false }), failure: null, at: 1 })).toEqual({ state: 'disabled', reason: WRITES_OFF });
    expect(WRITES_OFF).toContain('GEOSHARD_WRITES=1');
    expect(writeAvailability({ phase: 'ready', status: status(null), failure: null, at: 1 })).toMatchObject({ state: 'disabled', reason: expect.stringContaining('GEOSHARD_WRITES=1') });
    expect(writeAvailability({ phase: 'ready', status: status({ enabled: true }), failure: null, at: 1 })).toEqual({ state: 'enabled' });
    const s = appStore.getState();
    s.setLiveOn(true);
    s.setTab('live');
    s.setWriteMode(true);
    s.setLiveStatus({ phase: 'ready', status: status({ enabled: false }), failure: null, at: 1 });
    expect(writing(appStore.getState())).toBe(false);
    s.setLiveStatus({ phase: 'ready', status: status({ enabled: true }), failure: null, at: 2 });
    expect(writing(appStore.getState())).toBe(true);
    s.setTab('radius');
    expect(writing(appStore.getState())).toBe(false);
  });

  it('places a draft with a fresh valid id, the default name and the core’s routing of the point', () => {
    const s = appStore.getState();
    placeAt(appStore, SF.lat + 1e-9, SF.lng);
    const d = appStore.getState().writeDraft!;
    expect(d.id).toMatch(WRITE_ID_RE);
    expect(d).toMatchObject({ lat: SF.lat, lng: SF.lng, name: DEFAULT_NAME, cuisines: [], priceLevel: null });
    expect(d.core.read).toEqual(mid);
    s.editDraft({ name: 'Tadich Grill', cuisines: ['seafood'], priceLevel: 3 });
    placeAt(appStore, 0, 0);
    const e = appStore.getState().writeDraft!;
    expect(e.id).not.toBe(d.id);
    expect(e).toMatchObject({ name: 'Tadich Grill', cuisines: ['seafood'], priceLevel: 3 });
    // The body is what the server's own validator accepts.
    expect(parseRestaurantBody(bodyOf(e))).toEqual({ name: 'Tadich Grill', lat: 0, lng: 0, cuisines: ['seafood'], price_level: 3 });
    expect(bodyOf({ ...e, cuisines: [], priceLevel: null, name: '  x ' })).toEqual({ name: 'x', lat: 0, lng: 0 });
  });
});

describe('the write requests', () => {
  beforeEach(() => {
    resetAppStore();
    appStore.getState().setBoundaries(FILE, ROUTER, 'test');
  });

  /** A fake API: records each request and answers with `reply`. */
  function fakeApi(reply: (method: string, url: string, body: unknown) => { status: number; json: unknown; headers?: Record<string, string> }) {
    const seen: { method: string; url: string; body: unknown; contentType: string | null }[] = [];
    const f = (async (url: string, init: RequestInit) => {
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const method = init.method ?? 'GET';
      seen.push({ method, url, body, contentType: new Headers(init.headers).get('content-type') });
      const r = reply(method, url, body);
      return new Response(JSON.stringify(r.json), { status: r.status, headers: { 'content-type': 'application/json', ...r.headers } });
    }) as unknown as typeof fetch;
    return { f, seen };
  }

  it('writes the draft with PUT, shows the answer, then deletes the placed restaurant', async () => {
    const { f, seen } = fakeApi((method, url, body) => {
      const id = url.split('/').pop()!;
      const b = body as { lat: number; lng: number } | undefined;
      return { status: 200, json: answerFor(ROUTER, id, b?.lat ?? SF.lat, b?.lng ?? SF.lng, method === 'PUT' ? 'written' : 'deleted') };
    });
    const s = appStore.getState();
    placeAt(appStore, SF.lat, SF.lng);
    const id = appStore.getState().writeDraft!.id;
    const sent = submitDraft(appStore, f);
    expect(appStore.getState().writeRequest.phase).toBe('sending');
    await sent;
    expect(seen[0]).toEqual({ method: 'PUT', url: `/api/restaurants/${id}`, body: { name: DEFAULT_NAME, lat: SF.lat, lng: SF.lng }, contentType: 'application/json' });
    let r = appStore.getState().writeRequest;
    expect(r).toMatchObject({ phase: 'done', op: 'put', failure: null, placed: { id, lat: SF.lat, lng: SF.lng } });
    expect(writeVerdict(r.core!, r.answer!).agree).toBe(true);
    expect(appStore.getState().writeDraft).toBeNull();
    await deletePlaced(appStore, f);
    expect(seen[1]).toMatchObject({ method: 'DELETE', url: `/api/restaurants/${id}`, body: undefined });
    r = appStore.getState().writeRequest;
    expect(r).toMatchObject({ phase: 'done', op: 'delete', placed: null });
    expect(r.answer!.status).toBe('deleted');
  });

  it('keeps the draft and shows the refusal, field named, when the API refuses the write', async () => {
    const { f } = fakeApi((_m, _u, body) => {
      try {
        parseRestaurantBody(body);
        return { status: 200, json: {} };
      } catch (e) {
        const pe = e as Error & { param: string };
        return { status: 400, json: { status: 'invalid', error: { param: pe.param, message: pe.message } } };
      }
    });
    const s = appStore.getState();
    placeAt(appStore, SF.lat, SF.lng);
    s.editDraft({ name: '   ' });
    await submitDraft(appStore, f);
    const r = appStore.getState().writeRequest;
    expect(r.failure).toMatchObject({ kind: 'invalid', httpStatus: 400, param: 'name' });
    expect(r.failure!.message).toMatch(/^name /);
    expect(appStore.getState().writeDraft).not.toBeNull();
    expect(r.placed).toBeNull();
  });
});
