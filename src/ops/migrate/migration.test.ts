import { describe, it, expect } from 'vitest';
import { cellFromOrdinal, cellToken, withHash, type PlanMove } from '../../core/index.ts';
import { advance, startState } from '../../core/migrationState.ts';
import { fileWithCuts } from '../../core/testutil.ts';
import { driftState } from '../../server/driftGuard.ts';
import { indexMeta } from '../../opensearch/indexSpec.ts';
import { parseSearchParams } from '../../server/wire.ts';
import { withState } from './migration.ts';
import { setWriteBlock } from './cutover.ts';
import { OpenSearchClient, ADMIN_TIMEOUT_MS, ADMIN_ENGINE_TIMEOUTS, type RequestOptions } from '../../cluster/client.ts';
import { Router } from '../../core/index.ts';
import { RouterCache } from '../../opensearch/meta.ts';
import { migrationStatusOf } from '../../server/api/status.ts';
import { isStale, acquireLock, LOCK_INDEX, type LockHolder } from './migrationLock.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import { buildSearchBody } from '../../server/search/searchBody.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const NOW = '2026-12-01T00:00:00.000Z';
const base = fileWithCuts([1000, 2000], 'geoshard-unit');
const { hash: _h, ...rest } = base;
const candidate = withHash({ ...rest, version: 2, parent: base.hash, boundaries: [tok(1000), tok(1500)] });
const [, s1, s2] = base.shards.map((s) => s.name);
const move: PlanMove = { n: 1, from: s1, to: s2, start: tok(1500), end: tok(2000), startOrdinal: 1500, endOrdinal: 2000, fromShard: 1, toShard: 2, candidateTo: s2, cells: 500, restaurants: 0, dishes: 0, share: 0 };
const started = advance(startState(base, candidate, [move], NOW), 0, 'dual-write', NOW);
const meta = withState(indexMeta(base), started);

describe('drift during a migration', () => {
  it('accepts the settled file and the migration target, and refuses a third file naming all three hashes', () => {
    expect(driftState(base, meta).status).toBe('ok');
    expect(driftState(candidate, meta).status).toBe('ok');
    const third = withHash({ ...rest, version: 3, parent: base.hash, boundaries: [tok(900), tok(2000)] });
    const d = driftState(third, meta);
    expect(d.status).toBe('mismatch');
    expect(d.targetHash).toBe(candidate.hash);
    for (const h of [base.hash, candidate.hash, third.hash]) expect(d.message).toContain(h);
  });

  it('refuses the target once the migration is no longer recorded (the index settled back on its base)', () => {
    expect(driftState(candidate, indexMeta(base)).status).toBe('mismatch');
  });
});

describe('searching during a migration', () => {
  it('routes with the migration’s state and builds its router once per epoch', () => {
    const routing = new RouterCache();
    const fileRouter = new Router(base);
    const a = routing.routerFor(meta, fileRouter);
    expect(a.state?.epoch).toBe(1);
    expect(a.router.readExclusions()).toEqual([{ startOrdinal: 1500, endOrdinal: 2000, start: tok(1500), end: tok(2000), routing: s2 }]);
    expect(routing.routerFor(JSON.parse(JSON.stringify(meta)), fileRouter).router).toBe(a.router);
    const switched = ['copying', 'verified', 'switched'].reduce((s, to) => advance(s, 0, to as never, NOW, to === 'verified' ? { verified: { from: { restaurants: 1, dishes: 1 }, to: { restaurants: 1, dishes: 1 } } } : {}), started);
    const b = routing.routerFor(withState(indexMeta(base), switched), fileRouter);
    expect(b.router).not.toBe(a.router);
    expect(b.router.readExclusions()[0].routing).toBe(s1);
    expect(routing.routerFor(indexMeta(base), fileRouter).router).toBe(fileRouter);
  });

  it('drops the non-read copy of each moving range from the restaurants a search joins its dishes to', () => {
    const p = parseSearchParams(new URLSearchParams('lat=40&lng=-74&radius=10mi'));
    const body = buildSearchBody(p, 5000, [{ startOrdinal: 1500, endOrdinal: 2000, start: 'aaa', end: 'bbb', routing: 'echo' }, { startOrdinal: 9, endOrdinal: 10, start: 'ccc', end: null, routing: 'golf' }]) as any;
    const parent = body.query.bool.must[0].has_parent.query.function_score.query.bool;
    expect(parent.must_not).toEqual([
      { bool: { filter: [{ term: { _routing: 'echo' } }, { range: { cell: { gte: 'aaa', lt: 'bbb' } } }] } },
      { bool: { filter: [{ term: { _routing: 'golf' } }, { range: { cell: { gte: 'ccc' } } }] } },
    ]);
    const none = buildSearchBody(parseSearchParams(new URLSearchParams('')), 5000, [{ startOrdinal: 1, endOrdinal: 2, start: 'aaa', end: 'bbb', routing: 'echo' }]) as any;
    expect(none.query.bool.must[0].has_parent.query.bool.must_not).toHaveLength(1);
    // Settled: the query is the one it always was.
    expect(buildSearchBody(p, 5000)).toEqual(buildSearchBody(p, 5000, []));
    expect(JSON.stringify(buildSearchBody(p, 5000))).not.toContain('must_not');
  });

  it('reports the migration for /api/status with each range’s owners as shard numbers', () => {
    const s = migrationStatusOf(base, started);
    expect(s).toMatchObject({ epoch: 1, base: base.hash, target: candidate.hash, targetVersion: 2 });
    expect(s.moves).toEqual([{ start: tok(1500), end: tok(2000), from: s1, to: s2, fromShard: 1, toShard: 2, step: 'dual-write', copied: { restaurants: 0, dishes: 0 }, verified: null, cutover: null }]);
  });
});

describe('the migration lock', () => {
  const holder = (h: Partial<LockHolder>): LockHolder => ({ owner: 'x', host: 'here', pid: 42, startedAt: NOW, heartbeatAt: 1_000_000, ...h });
  it('is stale on this host exactly when its process is gone, whatever its heartbeat', () => {
    expect(isStale(holder({}), 1_000_000, 30_000, 'here', () => false)).toBe(true);
    expect(isStale(holder({}), 9_000_000, 30_000, 'here', () => true)).toBe(false);
  });
  it('is stale on another host when its heartbeat is older than the limit', () => {
    expect(isStale(holder({ host: 'there' }), 1_000_000 + 30_001, 30_000, 'here', () => true)).toBe(true);
    expect(isStale(holder({ host: 'there' }), 1_000_000 + 29_999, 30_000, 'here', () => false)).toBe(false);
  });
});

describe('admin deadlines of the migration\'s cluster-state changes', () => {
  /** A client that records what it is asked and answers every request 200 {} without a network. */
  class RecordingClient extends OpenSearchClient {
    readonly calls: { method: string; path: string; timeoutMs: number | undefined; query: RequestOptions['query'] }[] = [];
    override async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<{ status: number; body: T }> {
      this.calls.push({ method, path, timeoutMs: opts.timeoutMs, query: opts.query });
      // The lock document: a fresh create (201, seq numbers); anything else: an empty 200.
      return { status: path.includes('/_create/') ? 201 : 200, body: { _seq_no: 0, _primary_term: 1 } as T };
    }
  }
  it('writes _meta, creates the lock index and sets the write block with ADMIN_TIMEOUT_MS and the engine waits, not the 10 s search deadline', async () => {
    const c = new RecordingClient({ url: 'http://127.0.0.1:1', timeoutMs: 10_000 });
    await writeMeta(c, 'geoshard-unit', meta);
    const lock = await acquireLock(c, 'geoshard-unit', 60_000);
    await lock.release();
    await setWriteBlock(c, 'geoshard-unit', true);
    const changes = c.calls.filter((x) => x.path.endsWith('/_mapping') || x.path.endsWith('/_settings') || (x.method === 'PUT' && x.path.split('/').length === 2));
    expect(changes.map((x) => `${x.method} ${x.path}`)).toEqual(['PUT /geoshard-unit/_mapping', `PUT /${LOCK_INDEX}`, 'PUT /geoshard-unit/_settings']);
    for (const x of changes) {
      expect(x.timeoutMs).toBe(ADMIN_TIMEOUT_MS);
      expect(x.query).toMatchObject(ADMIN_ENGINE_TIMEOUTS);
    }
    await c.close();
  });
});
