/**
 * `geoshard reindex` on a real node: (a) the places gazetteer (135,233
 * documents, a plain hash-sharded index, field `geo`) adopted into a
 * geosharded index behind an alias while a plain client adds, changes and
 * deletes places by the index's name and through the alias; (b) the
 * restaurant sample split from N to N+1 shards (`geoshard split` + reindex);
 * (c) kill -9 of the command during the copy, during the verify and under the
 * switch's write block, each resumed to a correct end.
 *
 * Expected values come from elsewhere than the command: the writer's own
 * record of what the node acknowledged, the source index read before the
 * reindex, and the core's router (not the ingest pipeline) for the shard a
 * location belongs on. Index names: ri-* only; locks in ri-locks.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Router, parseBoundaryFile, type BoundaryFile } from '../../core/index.ts';
import { cellAt, cellVertices } from '../../core/cells.ts';
import { mulberry32 } from '../../core/testutil.ts';
import { loadGazetteer } from '../../data/places.ts';
import { ROOT, derivedFile, getJson, liveClient, startApi } from '../../testing/testkit.ts';
import { seedIndex } from '../seed/seeder.ts';
import { main } from '../../cli/main.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

const LOCKS = 'ri-locks';
const client = liveClient();
const dir = mkdtempSync(join(tmpdir(), 'ri-live-'));

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await client.close();
});

/** Runs a CLI command in this process; returns exit code and output. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  process.env.GEOSHARD_LOCK_INDEX = LOCKS;
  const code = await main(argv, { out: (s: string) => void (out += s), err: (s: string) => void (err += s) } as never);
  return { code, out, err };
}

/** A `geoshard reindex` in a child process (so it can be killed with SIGKILL). */
interface Child {
  child: ChildProcess;
  text: () => string;
  waitFor: (re: RegExp) => Promise<void>;
  exit: Promise<number | null>;
}

function reindexChild(args: string[], pause = ''): Child {
  const env = { ...process.env, GEOSHARD_REINDEX_PAUSE: pause, GEOSHARD_LOCK_INDEX: LOCKS };
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src', 'cli', 'bin.ts'), 'reindex', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) if (w.re.test(text)) waiters.splice(waiters.indexOf(w), 1), w.resolve();
  };
  child.stderr!.on('data', (b) => ((text += b), check()));
  child.stdout!.on('data', (b) => ((text += b), check()));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    text: () => text,
    exit,
    waitFor: (re) =>
      new Promise<void>((res, rej) => {
        if (re.test(text)) return res();
        waiters.push({ re, resolve: res });
        void exit.then((code) => (re.test(text) ? res() : rej(new Error(`geoshard reindex exited ${code} before printing ${re}:\n${text}`))));
      }),
  };
}

async function dropIndex(name: string) {
  await client.request('DELETE', `/${name}`, { okStatuses: [404] });
}

async function dropAll(prefix: string) {
  const res = await client.request<{ index: string }[]>('GET', `/_cat/indices/${prefix}*`, { query: { format: 'json' }, okStatuses: [404] });
  for (const r of Array.isArray(res.body) ? res.body : []) await dropIndex(r.index);
}

/** Loads the gazetteer's places (the first n) as a plain index with `shards` shards: no routing, the engine hashes the id. */
async function loadPlaces(index: string, n: number, shards: number): Promise<number> {
  await dropIndex(index);
  await client.admin('PUT', `/${index}`, {
    body: {
      settings: { index: { number_of_shards: shards, number_of_replicas: 0, refresh_interval: '-1' } },
      mappings: { dynamic: 'strict', properties: { id: { type: 'keyword' }, name: { type: 'text', fields: { raw: { type: 'keyword' } } }, country: { type: 'keyword' }, population: { type: 'integer' }, geo: { type: 'geo_point' } } },
    },
  });
  const g = loadGazetteer().slice(0, n);
  for (let i = 0; i < g.length; i += 10_000) {
    let body = '';
    for (const p of g.slice(i, i + 10_000)) body += JSON.stringify({ index: { _index: index, _id: `p${p.cityId}` } }) + '\n' + JSON.stringify(placeSource(p.cityId, p.name, p.country, p.population, p.loc.coordinates[1], p.loc.coordinates[0])) + '\n';
    const r = await client.request<{ errors: boolean }>('POST', '/_bulk', { body, query: { filter_path: 'errors' }, timeoutMs: 180_000 });
    expect(r.body.errors).toBe(false);
  }
  await client.admin('PUT', `/${index}/_settings`, { body: { index: { refresh_interval: null } } });
  await client.request('POST', `/${index}/_refresh`, { timeoutMs: 120_000 });
  return g.length;
}

const placeSource = (id: number | string, name: string, country: string, population: number, lat: number, lon: number) => ({ id: typeof id === 'number' ? `p${id}` : id, name, country, population, geo: { lat, lon } });

/** Every document of an index, per shard, read independently of the command (search_after on id, one shard at a time). */
async function docsByShard(index: string): Promise<Map<number, { id: string; routing?: string; source: Record<string, unknown> }[]>> {
  const body = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${index}/_settings/index.number_of_shards`);
  const n = Number(Object.values(body)[0].settings.index.number_of_shards);
  const out = new Map<number, { id: string; routing?: string; source: Record<string, unknown> }[]>();
  for (let k = 0; k < n; k++) {
    const docs: { id: string; routing?: string; source: Record<string, unknown> }[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const r = await client.request<{ hits: { hits: { _id: string; _routing?: string; _source: Record<string, unknown>; sort: unknown[] }[] } }>('POST', `/${index}/_search`, {
        query: { preference: `_shards:${k}` },
        body: { size: 10_000, sort: [{ _id: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
        timeoutMs: 120_000,
      });
      const hits = r.body.hits.hits;
      for (const h of hits) docs.push({ id: h._id, routing: h._routing, source: h._source });
      if (hits.length < 10_000) break;
      after = hits[hits.length - 1].sort;
    }
    out.set(k, docs);
  }
  return out;
}

/** misplacedIn lists the documents of an index not on the shard the core's router names for their location (the audit, done apart from the command). */
function misplacedIn(byShard: Map<number, { id: string; source: Record<string, unknown> }[]>, router: Router, field: (s: Record<string, unknown>) => { lat: number; lon: number }): string[] {
  const bad: string[] = [];
  for (const [k, docs] of byShard) for (const d of docs) if (router.readShard(field(d.source).lat, field(d.source).lon).shard !== k) bad.push(`${d.id} on ${k}`);
  return bad;
}

/** sorted serialises a JSON value with its keys sorted (an ingest pipeline rewrites a source's key order). */
const sorted = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(sorted).join(',')}]` : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sorted((v as Record<string, unknown>)[k])}`).join(',')}}` : JSON.stringify(v);

/** nameOf returns the name of shard number k in a router (its shards are listed in key order, not by number). */
const nameOf = (router: Router, k: number) => router.shards.find((s) => s.shard === k)!.name;

const aliasOf = async (alias: string) => {
  const r = await client.request<Record<string, unknown>>('GET', `/_alias/${alias}`, { okStatuses: [404] });
  return r.status === 404 ? [] : Object.keys(r.body);
};

const isBlock = (e: unknown) => e instanceof OpenSearchError && e.status === 403 && /cluster_block/.test(e.message);
/** A delete sent through the alias just after the switch with the routing its search found before it (none, on SRC): DEST requires one. */
const isStaleRouting = (e: unknown) => e instanceof OpenSearchError && e.status === 400 && /routing_missing_exception/.test(e.message);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A plain client (knows nothing of geoshard: no routing) that creates, changes and deletes
 * places, half of its operations by the source index's own name and half through the
 * alias, and records every write the node acknowledged. A write refused by a write block
 * (403 cluster_block_exception) is sent again through the alias, as the README tells
 * writers to; deletes find the document's routing with a search by id (ingest pipelines
 * do not run on deletes, and the geosharded index requires a routing).
 */
class PlacesWriter {
  readonly truth = new Map<string, Record<string, unknown> | null>();
  private readonly lastWrite = new Map<string, number>();
  readonly stats = { creates: 0, updates: 0, deletes: 0, refused: 0 };
  private stopped = false;
  private n = 0;
  private readonly rand: () => number;

  constructor(
    private readonly src: string,
    private readonly alias: string,
    private readonly originals: readonly { id: string; source: Record<string, unknown> }[],
    seed: number,
  ) {
    this.rand = mulberry32(seed);
  }

  stop() {
    this.stopped = true;
  }

  async run() {
    while (!this.stopped) await this.step();
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)];
  }

  /**
   * Sends one write, by the source's name or through the alias; a blocked write goes through the
   * alias. `f` is sent again whole (a delete searches for its routing again) when the alias moved
   * between a delete's search and the delete (400 routing_missing_exception), as the README tells
   * plain writers to.
   */
  private async send(byName: boolean, f: (target: string) => Promise<void>) {
    let target = byName ? this.src : this.alias;
    for (let i = 0; ; i++) {
      try {
        return await f(target);
      } catch (e) {
        if (!(isBlock(e) || (isStaleRouting(e) && target === this.alias)) || i > 400) throw e;
        this.stats.refused++;
        target = this.alias;
        await sleep(50);
      }
    }
  }

  private current(id: string): Record<string, unknown> | undefined {
    if (this.truth.has(id)) return this.truth.get(id) ?? undefined;
    return this.originals.find((o) => o.id === id)?.source;
  }

  async step() {
    const r = this.rand();
    const byName = this.rand() < 0.5;
    const now = performance.now();
    // Ids whose last write is older than a refresh (deletes find them with a search).
    const settled = (id: string) => now - (this.lastWrite.get(id) ?? 0) > 1500;
    if (r < 0.4) {
      const o = this.pick(this.originals).source as { geo: { lat: number; lon: number }; country: string };
      const id = `w-${this.n++}`;
      const s = placeSource(id, `New place ${id}`, o.country, 1000 + Math.floor(this.rand() * 1e5), o.geo.lat, o.geo.lon);
      await this.send(byName, async (t) => void (await client.request('PUT', `/${t}/_doc/${id}`, { body: s })));
      this.truth.set(id, s), this.lastWrite.set(id, performance.now()), this.stats.creates++;
    } else if (r < 0.75) {
      const mine = [...this.truth.entries()].filter(([, s]) => s !== null).map(([id]) => id);
      const id = mine.length > 0 && this.rand() < 0.5 ? this.pick(mine) : this.pick(this.originals).id;
      const cur = this.current(id);
      if (!cur) return;
      const s = { ...cur, name: `${String(cur.name).split(' #')[0]} #${this.n++}`, population: Math.floor(this.rand() * 1e6) };
      await this.send(byName, async (t) => void (await client.request('PUT', `/${t}/_doc/${id}`, { body: s })));
      this.truth.set(id, s), this.lastWrite.set(id, performance.now()), this.stats.updates++;
    } else {
      const mine = [...this.truth.entries()].filter(([id, s]) => s !== null && settled(id)).map(([id]) => id);
      const id = mine.length > 0 && this.rand() < 0.5 ? this.pick(mine) : this.pick(this.originals).id;
      if (this.truth.get(id) === null || !settled(id)) return;
      let gone = false;
      await this.send(byName, async (t) => {
        const hits = (await client.request<{ hits: { hits: { _id: string; _index: string; _routing?: string }[] } }>('POST', `/${t}/_search`, { body: { query: { ids: { values: [id] } }, _source: false } })).body.hits.hits;
        for (const h of hits) await client.request('DELETE', `/${t}/_doc/${id}`, { query: { routing: h._routing } });
        gone = hits.length > 0;
      });
      if (gone) this.truth.set(id, null), this.lastWrite.set(id, performance.now()), this.stats.deletes++;
    }
  }
}

/** Ids inside each circle, searched on every shard of `index`, or routed by the router's covering when given. */
async function circleIds(index: string, circles: { lat: number; lng: number; radiusKm: number }[], router?: Router): Promise<string[][]> {
  const out: string[][] = [];
  for (const c of circles) {
    const routing = router?.cover(c.lat, c.lng, c.radiusKm).routing;
    const r = await client.request<{ hits: { hits: { _id: string }[] } }>('POST', `/${index}/_search`, {
      query: routing ? { routing } : {},
      body: { size: 10_000, _source: false, query: { geo_distance: { distance: `${c.radiusKm}km`, geo: { lat: c.lat, lon: c.lng } } }, track_total_hits: false },
    });
    out.push(r.body.hits.hits.map((h) => h._id).sort());
  }
  return out;
}

describe('geoshard reindex on a real node', () => {
  beforeAll(async () => {
    await client.request('DELETE', `/${LOCKS}`, { okStatuses: [404] });
  });

  // The copy by this process (client) and by the cluster's sliced _reindex through DEST's pipeline (engine).
  for (const copy of ['client', 'engine'] as const)
  it(`(a) adopts the 135,233 places into a geosharded index behind an alias while a writer adds, changes and deletes places (--copy ${copy})`, async () => {
    const SRC = 'ri-places-src';
    const DEST = 'ri-places-geo';
    const ALIAS = 'ri-places';
    // (A finalized earlier run left the source's name as an alias: drop every index of this test by its own name.)
    await dropAll('ri-places');
    const n = await loadPlaces(SRC, 1e9, 3);
    expect(n).toBe(135_233);
    // The boundary file from the data: cells from the index, then balance.
    const cellsPath = join(dir, 'places-cells.csv');
    const filePath = join(dir, 'places.json');
    expect((await cli('cells', '--from-index', SRC, '--field', 'geo', '--out', cellsPath)).code).toBe(0);
    const bal = await cli('balance', '--cells', cellsPath, '--min', '4', '--max', '8', '--index', ALIAS, '--out', filePath, '--created-at', '2026-12-01T00:00:00.000Z');
    expect(bal.code, bal.err).toBe(0);
    const file = parseBoundaryFile(readFileSync(filePath, 'utf8'), filePath);
    const router = new Router(file);

    // 20 seeded circles, answered on every shard of the source before anything changes.
    const rand = mulberry32(2026);
    const g = loadGazetteer();
    const circles = Array.from({ length: 20 }, () => {
      const p = g[Math.floor(rand() * g.length)];
      return { lat: p.loc.coordinates[1], lng: p.loc.coordinates[0], radiusKm: 20 + Math.floor(rand() * 180) };
    });
    const before = await circleIds(SRC, circles);
    expect(before.reduce((s, x) => s + x.length, 0)).toBeGreaterThan(100);

    // Clients already use an alias of the source; the writer also writes by the source's name.
    await client.admin('POST', '/_aliases', { body: { actions: [{ add: { index: SRC, alias: ALIAS } }] } });
    const sample = (await client.request<{ hits: { hits: { _id: string; _source: Record<string, unknown> }[] } }>('POST', `/${SRC}/_search`, { body: { size: 3000, query: { match_all: {} } } })).body.hits.hits;
    const writer = new PlacesWriter(SRC, ALIAS, sample.map((h) => ({ id: h._id, source: h._source })), 7);
    const writing = writer.run();
    await sleep(1500);
    const t0 = performance.now();
    const run = reindexChild(['--from', SRC, '--to', DEST, '--boundaries', filePath, '--alias', ALIAS, '--field', 'geo', '--copy', copy]);
    const code = await run.exit;
    const seconds = (performance.now() - t0) / 1000;
    expect(code, run.text()).toBe(0);
    // Some writes through the alias after the switch, then stop.
    await sleep(2000);
    writer.stop();
    await writing;
    const text = run.text();
    const windowMs = Number(/blocked (\d+) ms before the alias moved/.exec(text)?.[1]);
    const rate = Number(/at ([\d,]+) documents\/s/.exec(text)?.[1].replace(/,/g, ''));
    if (copy === 'engine') expect(text).toMatch(/the cluster copies "ri-places-src" into "ri-places-geo" with _reindex \(task /);
    console.log(`reindex (a, --copy ${copy}): ${seconds.toFixed(1)} s, copy ${rate} documents/s, switch window ${windowMs} ms; writer ${JSON.stringify(writer.stats)}\n${text.split('\n').filter((l) => /switch|catch-up|verify:|copy \d/.test(l)).join('\n')}`);
    expect(text).toMatch(/verify: 135,\d{3} documents on "ri-places-src"/);
    expect(writer.stats.creates + writer.stats.updates + writer.stats.deletes).toBeGreaterThan(20);

    expect(await aliasOf(ALIAS)).toEqual([DEST]);
    await client.request('POST', `/${DEST}/_refresh`, { timeoutMs: 120_000 });
    // Every acknowledged write is there (or gone), exactly once, with its last content.
    const ids = [...writer.truth.keys()];
    const held = new Map<string, Record<string, unknown>[]>();
    for (let i = 0; i < ids.length; i += 1000) {
      const r = await client.request<{ hits: { hits: { _id: string; _source: Record<string, unknown> }[] } }>('POST', `/${ALIAS}/_search`, { body: { size: 2000, query: { ids: { values: ids.slice(i, i + 1000) } } } });
      for (const h of r.body.hits.hits) held.set(h._id, [...(held.get(h._id) ?? []), h._source]);
    }
    const lost: string[] = [];
    const twice: string[] = [];
    const stale: string[] = [];
    const resurrected: string[] = [];
    for (const [id, s] of writer.truth) {
      const h = held.get(id) ?? [];
      if (s === null) {
        if (h.length > 0) resurrected.push(id);
        continue;
      }
      if (h.length === 0) lost.push(id);
      else if (h.length > 1) twice.push(id);
      else if (sorted(h[0]) !== sorted(s)) stale.push(id);
    }
    expect({ lost, twice, stale, resurrected }).toEqual({ lost: [], twice: [], stale: [], resurrected: [] });
    // Nothing else changed: the count is the gazetteer's plus the writer's creates minus its deletes.
    const count = (await client.request<{ count: number }>('POST', `/${ALIAS}/_count`)).body.count;
    const created = [...writer.truth.entries()].filter(([id, s]) => id.startsWith('w-') && s !== null).length;
    const deletedOriginals = [...writer.truth.entries()].filter(([id, s]) => !id.startsWith('w-') && s === null).length;
    expect(count).toBe(135_233 + created - deletedOriginals);
    // The audit, apart from the command: every document on the shard the core names for its geo.
    const byShard = await docsByShard(DEST);
    expect([...byShard.values()].reduce((s, d) => s + d.length, 0)).toBe(count);
    expect(misplacedIn(byShard, router, (s) => s.geo as { lat: number; lon: number })).toEqual([]);
    for (const [k, docs] of byShard) for (const d of docs.slice(0, 50)) expect(d.routing).toBe(nameOf(router, k));
    // The command's audit of the flat index by its field agrees: clean.
    const audit = await cli('audit', '--index', DEST, '--field', 'geo');
    expect(audit.code, audit.out + audit.err).toBe(0);
    expect(audit.out).toContain('(flat, located by geo)');
    expect(audit.out).toContain('every document is on a right shard');
    // And it is not blind: a place written past the pipeline onto a shard that does not own its cell is named.
    const paris = router.readShard(48.8566, 2.3522);
    const wrong = router.shards.find((x) => x.shard !== paris.shard)!;
    await client.request('PUT', `/${DEST}/_doc/misplaced-paris`, { query: { routing: wrong.name, pipeline: '_none', refresh: 'true' }, body: placeSource('misplaced-paris', 'Paris', 'FR', 1, 48.8566, 2.3522) });
    const bad = await cli('audit', '--index', DEST, '--field', 'geo');
    await client.request('DELETE', `/${DEST}/_doc/misplaced-paris`, { query: { routing: wrong.name, refresh: 'true' } });
    expect(bad.code, bad.out + bad.err).toBe(1);
    expect(bad.err).toMatch(new RegExp(`document misplaced-paris: wrong-shard on shard ${wrong.shard}, expected shard ${paris.shard}`));
    // The 20 circles, routed through the alias, give the ids the source gave before (the writer's ids aside).
    const after = await circleIds(ALIAS, circles, router);
    const untouched = (xs: string[]) => xs.filter((id) => !writer.truth.has(id));
    expect(after.map(untouched)).toEqual(before.map(untouched));
    // The source is kept, write-blocked: a write by its name is refused, not lost.
    await expect(client.request('PUT', `/${SRC}/_doc/late`, { body: placeSource('late', 'x', 'US', 1, 1, 1) })).rejects.toThrow(/cluster_block/);

    // --finalize deletes the source and gives its name to DEST as a second alias.
    const fin = await cli('reindex', '--to', DEST, '--finalize');
    expect(fin.code, fin.err).toBe(0);
    expect((await client.request('HEAD', `/${DEST}`)).status).toBe(200);
    expect(await aliasOf(SRC)).toEqual([DEST]);
    const meta = (await client.get<Record<string, { mappings: { _meta: Record<string, unknown> } }>>(`/${DEST}/_mapping`))[DEST].mappings._meta;
    expect(meta.reindex).toBeUndefined();
    expect(meta.hash).toBe(file.hash);
  }, 900_000);

  it("(d) the cluster's copy (_reindex through DEST's pipeline) and the client's copy make the same index, document for document, with points within 10 cm of cell corners", async () => {
    const SRC = 'ri-same-src';
    await dropAll('ri-same');
    await loadPlaces(SRC, 6000, 4);
    // Points a few centimetres from level-10 cell corners (the core's cell vertices), around 150 places:
    // 4 corners x 4 diagonal offsets of 3-7 cm each. Either side routing them differently would show.
    const g = loadGazetteer().slice(0, 150);
    const cm = 1e-7 * 0.9; // ~1 cm of latitude in degrees
    let body = '';
    let corners = 0;
    for (const p of g) {
      for (const v of cellVertices(cellAt(p.loc.coordinates[1], p.loc.coordinates[0]))) {
        for (const [dy, dx] of [[5, 5], [-5, 5], [5, -5], [-3, -3]]) {
          const lat = v.lat + dy * cm;
          const lon = v.lng + (dx * cm) / Math.max(0.05, Math.cos((v.lat * Math.PI) / 180));
          const id = `corner-${corners++}`;
          body += JSON.stringify({ index: { _index: SRC, _id: id } }) + '\n' + JSON.stringify(placeSource(id, 'corner', 'XX', 1, lat, lon)) + '\n';
        }
      }
    }
    expect((await client.request<{ errors: boolean }>('POST', '/_bulk', { body, query: { refresh: 'true', filter_path: 'errors' }, timeoutMs: 120_000 })).body.errors).toBe(false);
    const cellsPath = join(dir, 'same-cells.csv');
    expect((await cli('cells', '--from-index', SRC, '--field', 'geo', '--out', cellsPath)).code).toBe(0);
    const verdicts: string[] = [];
    const dests: string[] = [];
    let router: Router | null = null;
    for (const copy of ['client', 'engine'] as const) {
      const alias = `ri-same-${copy}`;
      const dest = `ri-same-${copy}-geo`;
      const filePath = join(dir, `same-${copy}.json`);
      const bal = await cli('balance', '--cells', cellsPath, '--min', '5', '--max', '5', '--index', alias, '--out', filePath, '--created-at', '2026-12-01T00:00:00.000Z');
      expect(bal.code, bal.err).toBe(0);
      router = new Router(parseBoundaryFile(readFileSync(filePath, 'utf8'), filePath));
      const run = await cli('reindex', '--from', SRC, '--to', dest, '--boundaries', filePath, '--alias', alias, '--field', 'geo', '--copy', copy);
      expect(run.code, run.err).toBe(0);
      verdicts.push(run.err.split('\n').filter((l) => /verify: (no difference|\d+ missing|\d+ different|\d+ only)/.test(l)).join('\n'));
      dests.push(dest);
      // Back on the source, so the next copy mode starts from the same index.
      const back = await cli('reindex', '--to', dest, '--rollback');
      expect(back.code, back.err).toBe(0);
    }
    // The same verify verdict: the copy left nothing to fix (no writer ran).
    expect(verdicts[0]).toBe('geoshard reindex: verify: no difference');
    expect(verdicts[1]).toBe(verdicts[0]);
    // Document for document: the same ids on the same shard numbers with the same routing and source.
    const flat = async (index: string) => {
      const by = await docsByShard(index);
      return [...by].flatMap(([k, docs]) => docs.map((d) => `${k} ${d.id} ${d.routing} ${sorted(d.source)}`)).sort();
    };
    const [c, e] = [await flat(dests[0]), await flat(dests[1])];
    expect(c.length).toBe(6000 + corners);
    expect(e).toEqual(c);
    // And both put every corner point where the core's router says (the audit, apart from the command).
    const byShard = await docsByShard(dests[1]);
    expect(misplacedIn(byShard, router!, (s) => s.geo as { lat: number; lon: number })).toEqual([]);
  }, 600_000);

  it('(e) the cluster copy is throttled, rethrottled and paused through the tasks API, and a run after the pause resumes it, skipping what DEST holds', async () => {
    const SRC = 'ri-pause-src';
    const DEST = 'ri-pause-geo';
    const ALIAS = 'ri-pause';
    await dropAll('ri-pause');
    const n = await loadPlaces(SRC, 30_000, 3);
    const cellsPath = join(dir, 'pause-cells.csv');
    const filePath = join(dir, 'pause.json');
    expect((await cli('cells', '--from-index', SRC, '--field', 'geo', '--out', cellsPath)).code).toBe(0);
    expect((await cli('balance', '--cells', cellsPath, '--min', '4', '--max', '4', '--index', ALIAS, '--out', filePath, '--created-at', '2026-12-01T00:00:00.000Z')).code).toBe(0);
    const args = ['--from', SRC, '--to', DEST, '--boundaries', filePath, '--alias', ALIAS, '--field', 'geo', '--copy', 'engine'];
    // 500 documents/s: the copy of 30,000 would take a minute.
    const first = reindexChild([...args, '--throttle', '500', '--batch', '500']);
    await first.waitFor(/with _reindex \(task ([^,]+),/);
    const task = /with _reindex \(task ([^,]+),/.exec(first.text())![1];
    await first.waitFor(/copy \(cluster\) [\d,]+\/30,000/);
    // The task is the cluster's: the tasks API knows it, with its throttle.
    // The task is the cluster's: the tasks API knows it and its slices, each with its share of the throttle.
    const running = await client.request<{ completed: boolean }>('GET', `/_tasks/${task}`);
    expect(running.body.completed).toBe(false);
    type Kids = { nodes: Record<string, { tasks: Record<string, { status: { requests_per_second: number } }> }> };
    const kids = await client.request<Kids>('GET', '/_tasks', { query: { parent_task_id: task, detailed: 'true' } });
    const rates = Object.values(kids.body.nodes).flatMap((n) => Object.values(n.tasks).map((t) => t.status.requests_per_second));
    expect(rates.length).toBe(3);
    expect(rates.reduce((a, x) => a + x, 0)).toBeCloseTo(500, 0);
    const re = await cli('reindex', '--to', DEST, '--rethrottle', '800');
    expect(re.code, re.err).toBe(0);
    expect(re.out).toContain(`the copy task ${task} into "${DEST}" now runs at at most 800 documents/s`);
    const bad = await cli('reindex', '--to', DEST, '--rethrottle', '0');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--rethrottle "0" is not a throttle: expected documents per second > 0, or -1 for none');
    const pause = await cli('reindex', '--to', DEST, '--pause');
    expect(pause.code, pause.err).toBe(0);
    expect(pause.out).toMatch(new RegExp(`cancelled the copy task ${task} into "${DEST}" \\([\\d,]+ of 30,000 documents copied\\)`));
    expect(await first.exit).toBe(1);
    expect(first.text()).toContain(`the cluster's copy task ${task} was cancelled (--pause, or by hand): run the command again to resume the copy`);
    await client.request('POST', `/${DEST}/_refresh`);
    const partial = (await client.request<{ count: number }>('POST', `/${DEST}/_count`)).body.count;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(n);
    // The alias never moved.
    expect(await aliasOf(ALIAS)).toEqual([SRC]);
    const second = await cli('reindex', ...args);
    expect(second.code, second.err).toBe(0);
    expect(second.err).toContain(`copy: the cluster's copy task ${task} was cancelled: starting it again, skipping what DEST holds`);
    expect(second.err).toMatch(/copy \(cluster\) 30,000\/30,000 documents \(100%\), [\d,]+ documents\/s, [\d,]+ already in DEST/);
    expect(second.err).toContain('verify: no difference');
    expect(await aliasOf(ALIAS)).toEqual([DEST]);
    expect((await client.request<{ count: number }>('POST', `/${ALIAS}/_count`)).body.count).toBe(n);
  }, 600_000);

  it('(b) splits the restaurant sample from N to N+1 shards with geoshard split + reindex', async () => {
    const SRC = 'ri-dishes';
    const DEST = 'ri-dishes-n1';
    const ALIAS = 'ri-dishes-live';
    await dropAll('ri-dishes');
    const base = derivedFile(SRC);
    await seedIndex({ client, router: new Router(base), restaurants: 2000, dishesPerRestaurant: 2, recreate: true });
    const basePath = join(dir, 'dishes.json');
    writeFileSync(basePath, JSON.stringify(base, null, 2));
    const splitPath = join(dir, 'dishes-split.json');
    const sp = await cli('split', '--boundaries', basePath, base.shards[0].name, '--out', splitPath, '--created-at', '2026-12-01T00:00:00.000Z');
    expect(sp.code, sp.err).toBe(0);
    const split: BoundaryFile = parseBoundaryFile(readFileSync(splitPath, 'utf8'), splitPath);
    expect(split.numberOfShards).toBe(base.numberOfShards + 1);
    // migrate refuses the change and names the command.
    const mig = await cli('migrate', '--candidate', splitPath);
    expect(mig.code).not.toBe(0);
    expect(mig.err).toContain(`npx geoshard reindex --from ${SRC} --to ${SRC}-v${split.version} --boundaries ${splitPath} --alias ${SRC}-live`);
    const srcDocs = await docsByShard(SRC);
    const srcById = new Map([...srcDocs.values()].flat().map((d) => [d.id, d.source]));
    const r = await cli('reindex', '--from', SRC, '--to', DEST, '--boundaries', splitPath, '--alias', ALIAS);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/verify: no difference/);
    const destDocs = await docsByShard(DEST);
    expect(destDocs.size).toBe(split.numberOfShards);
    const router = new Router(split);
    const restaurants = new Map<string, number>();
    for (const [k, docs] of destDocs) for (const d of docs) if (d.source.join === 'restaurant') restaurants.set(d.id, k);
    const bad: string[] = [];
    for (const [k, docs] of destDocs) {
      for (const d of docs) {
        const s = d.source as { location?: { lat: number; lon: number }; restaurant_location?: { lat: number; lon: number }; restaurant_id?: string; shard?: string };
        const p = s.location ?? s.restaurant_location!;
        if (router.readShard(p.lat, p.lon).shard !== k) bad.push(`${d.id} wrong shard`);
        if (s.restaurant_id && restaurants.get(s.restaurant_id) !== k) bad.push(`${d.id} apart from its restaurant`);
        if (s.location && s.shard !== nameOf(router, k)) bad.push(`${d.id} shard field ${s.shard}`);
        const { shard: _a, ...mine } = d.source;
        const { shard: _b, ...theirs } = srcById.get(d.id) ?? {};
        if (sorted(mine) !== sorted(theirs)) bad.push(`${d.id} differs`);
      }
    }
    expect(bad).toEqual([]);
    expect([...destDocs.values()].reduce((s, d) => s + d.length, 0)).toBe(srcById.size);
    // The package's audit through the alias agrees.
    const audit = await cli('audit', '--index', ALIAS);
    expect(audit.code, audit.out + audit.err).toBe(0);
    // --rollback points the alias back, and the source takes writes again.
    const rb = await cli('reindex', '--to', DEST, '--rollback');
    expect(rb.code, rb.err).toBe(0);
    expect(await aliasOf(ALIAS)).toEqual([SRC]);
    await client.request('POST', `/${ALIAS}/_count`);
    // Once rolled back, a new reindex of the source may run: through to --finalize, which gives the
    // source's name to the new index. The API then serves the split file (it names "ri-dishes")
    // through that alias: routed answers equal the all-shards ones (compare=1).
    const DEST2 = 'ri-dishes-n1b';
    await dropIndex(DEST2);
    const again = await cli('reindex', '--from', SRC, '--to', DEST2, '--boundaries', splitPath, '--alias', ALIAS);
    expect(again.code, again.err).toBe(0);
    expect((await cli('reindex', '--to', DEST2, '--finalize')).code).toBe(0);
    expect(await aliasOf(SRC)).toEqual([DEST2]);
    const api = await startApi({ file: split, client });
    try {
      const rand = mulberry32(5);
      const places = [...destDocs.values()].flat().filter((d) => d.source.join === 'restaurant');
      for (let i = 0; i < 10; i++) {
        const p = places[Math.floor(rand() * places.length)].source.location as { lat: number; lon: number };
        const r = await getJson(`${api.url}/api/search?lat=${p.lat}&lng=${p.lon}&radius=${5 + Math.floor(rand() * 40)}km&compare=1&size=10`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.identical).toBe(true);
        expect(r.body.total).toBeGreaterThan(0);
      }
    } finally {
      await api.close();
    }
    await dropIndex(DEST);
  }, 600_000);

  it('(c) resumes after kill -9 during the copy, during the verify and under the switch, and refuses a second reindex of the source meanwhile', async () => {
    const SRC = 'ri-kill-src';
    const DEST = 'ri-kill-geo';
    const ALIAS = 'ri-kill';
    await dropAll('ri-kill');
    const n = await loadPlaces(SRC, 30_000, 4);
    const cellsPath = join(dir, 'kill-cells.csv');
    const filePath = join(dir, 'kill.json');
    expect((await cli('cells', '--from-index', SRC, '--field', 'geo', '--out', cellsPath)).code).toBe(0);
    expect((await cli('balance', '--cells', cellsPath, '--min', '5', '--max', '5', '--index', ALIAS, '--out', filePath)).code).toBe(0);
    const file = parseBoundaryFile(readFileSync(filePath, 'utf8'), filePath);
    const args = ['--from', SRC, '--to', DEST, '--boundaries', filePath, '--alias', ALIAS, '--field', 'geo', '--batch', '1000', '--concurrency', '1'];

    const first = reindexChild(args, 'copying');
    await first.waitFor(/paused at copying/);
    // While it runs: a second reindex of the same source is refused (the lock).
    const second = await cli('reindex', '--from', SRC, '--to', 'ri-kill-other', '--boundaries', filePath, '--alias', ALIAS, '--field', 'geo');
    expect(second.code).not.toBe(0);
    expect(second.err).toMatch(/a reindex of "ri-kill-src" is already running: process \d+/);
    first.child.kill('SIGKILL');
    await first.exit;
    // Killed: the lock's holder is gone, but DEST records the reindex: still refused.
    const third = await cli('reindex', '--from', SRC, '--to', 'ri-kill-other', '--boundaries', filePath, '--alias', ALIAS, '--field', 'geo');
    expect(third.code).not.toBe(0);
    expect(third.err).toMatch(/a reindex of "ri-kill-src" into "ri-kill-geo" is in progress \(copying\)/);

    // Writes between the runs: a change and a delete the resumed runs must carry over.
    await client.request('PUT', `/${SRC}/_doc/w-between`, { body: placeSource('w-between', 'Between', 'FR', 5, 48.85, 2.35), query: { refresh: 'true' } });
    const victim = (await client.request<{ hits: { hits: { _id: string }[] } }>('POST', `/${SRC}/_search`, { body: { size: 1, query: { match_all: {} } } })).body.hits.hits[0]._id;
    await client.request('DELETE', `/${SRC}/_doc/${victim}`, { query: { refresh: 'true' } });

    const verifying = reindexChild(args, 'verifying');
    await verifying.waitFor(/paused at verifying/);
    expect(verifying.text()).toMatch(/resuming the reindex of "ri-kill-src" into "ri-kill-geo" at copying/);
    verifying.child.kill('SIGKILL');
    await verifying.exit;

    const switching = reindexChild(args, 'switching');
    await switching.waitFor(/paused at switching/);
    expect(switching.text()).toMatch(/resuming .* at verifying/);
    // Killed under the write block: SRC stays blocked (writes refused, retryable), the alias on SRC.
    switching.child.kill('SIGKILL');
    await switching.exit;
    expect(await aliasOf(ALIAS)).toEqual([SRC]);
    await expect(client.request('PUT', `/${SRC}/_doc/w-blocked`, { body: placeSource('w-blocked', 'x', 'US', 1, 1, 1) })).rejects.toThrow(/cluster_block/);

    const last = reindexChild(args);
    expect(await last.exit, last.text()).toBe(0);
    expect(last.text()).toMatch(/resuming .* at switching/);
    expect(await aliasOf(ALIAS)).toEqual([DEST]);
    // Correct end: DEST holds exactly SRC's documents, equal, each on its shard.
    const src = new Map([...(await docsByShard(SRC)).values()].flat().map((d) => [d.id, d.source]));
    const byShard = await docsByShard(DEST);
    const dest = new Map([...byShard.values()].flat().map((d) => [d.id, d.source]));
    expect(src.size).toBe(n);
    expect(src.has('w-between') && !src.has(victim)).toBe(true);
    expect([...byShard.values()].reduce((s, d) => s + d.length, 0)).toBe(src.size);
    const differ = [...src].filter(([id, s]) => sorted(dest.get(id)) !== sorted(s)).map(([id]) => id);
    expect(differ).toEqual([]);
    expect(misplacedIn(byShard, new Router(file), (s) => s.geo as { lat: number; lon: number })).toEqual([]);
    // Finalized, the other reindex is no longer refused for this source's reindex (it is gone with it).
    expect((await cli('reindex', '--to', DEST, '--finalize')).code).toBe(0);
    await dropAll('ri-kill');
  }, 900_000);
});
