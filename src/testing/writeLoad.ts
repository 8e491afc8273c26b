/**
 * A writer for the live tests and the benchmark: creates, fully updates and
 * deletes restaurants with their dishes on a real index while something else
 * (a migration) runs, and remembers every write the cluster acknowledged, so
 * that afterwards the index can be checked against it: every live document
 * present exactly once, on the shard the final boundary file names, with its
 * last acknowledged content; every deleted one gone; nothing else under the
 * writer's ids.
 *
 * Two paths, as real writers come:
 *   - `routed`: the package's writer (GeoIndexer, geoshard/opensearch), which
 *     follows the index's `_meta` and writes every owner the migration state
 *     names, each with its own routing, and waits out the write block itself;
 *   - `plain`: a client that knows nothing of geoshard: writes with no
 *     routing when the index has a routing pipeline (`plainRouting` null),
 *     and deletes what a search for the id finds, each hit with its own
 *     `_routing` (ingest pipelines do not run on deletes).
 * A write refused by the cutover's write block (403 cluster_block_exception)
 * is retried after a short wait, as the README tells writers to; retries are
 * counted.
 *
 * Its dishes carry no diet, so searches filtered by a diet answer as if the
 * writer were not there (the migration test compares such answers with
 * those from before the move).
 */
import { Router, type BoundaryFile } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';
import type { Restaurant } from '../data/generator.ts';
import type { OpenSearchClient } from '../cluster/client.ts';
import { RouterCache } from '../opensearch/meta.ts';
import { dishDoc, restaurantDoc, type Doc } from '../data/sample.ts';
import { SampleIndexer } from '../opensearch/sampleIndexer.ts';
import { fetchIndexMeta } from '../opensearch/indexMeta.ts';
import { OpenSearchError } from '../cluster/clientErrors.ts';

/** How a writer reaches the index. */
export type WritePath = 'routed' | 'plain';

/** What the writer last had acknowledged for one restaurant: its documents' sources, or null once deleted. */
interface Truth {
  path: WritePath;
  place: Restaurant;
  version: number;
  dishes: number;
  deleted: boolean;
}

/** Counts of what a writer did. */
export interface WriteStats {
  creates: number;
  updates: number;
  deletes: number;
  /** Operations that touched a location in `hot` (the moving ranges). */
  hot: number;
  /** Writes retried because the index was write-blocked (the cutover window). */
  blockedRetries: number;
  /** Longest time one operation waited on the write block (ms). */
  longestBlockedMs: number;
}

/** What the index holds against what the writer had acknowledged. */
export interface WriteCheck {
  /** Documents acknowledged and never deleted that the index does not hold. */
  lost: string[];
  /** Documents held more than once (on several shards). */
  duplicated: string[];
  /** Documents held that the writer deleted, or never wrote. */
  orphaned: string[];
  /** Documents held on a shard other than the one the final file names. */
  misplaced: string[];
  /** Documents whose content is not the last acknowledged one. */
  stale: string[];
  /** Documents checked. */
  checked: number;
}

/** Options of a WriteLoad. */
export interface WriteLoadOptions {
  client: OpenSearchClient;
  /** The index's settled file when the writer starts (its `_meta.file`). */
  base: BoundaryFile;
  /** Places to write in the moving ranges, and anywhere: sample restaurants whose locations are reused. */
  hot: readonly Restaurant[];
  any: readonly Restaurant[];
  /** Ids start with this (must not collide with the sample's `r…` ids). */
  prefix: string;
  seed: number;
  /** Which paths to use: one, or both alternating. */
  paths: readonly WritePath[];
  /** True when the index has a routing pipeline: plain writes then send no routing. */
  pipeline: boolean;
  /** Dishes per restaurant (default 3). */
  dishes?: number;
  /** The package writer's `_meta` reuse (GeoIndexer metaTtlMs, default its own 1 s): below the migration's --grace-ms. */
  metaTtlMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** WriteLoad runs operations one at a time until told to stop, and checks the index against what was acknowledged. */
export class WriteLoad {
  readonly stats: WriteStats = { creates: 0, updates: 0, deletes: 0, hot: 0, blockedRetries: 0, longestBlockedMs: 0 };
  private readonly truth = new Map<string, Truth>();
  private readonly rand: () => number;
  private readonly routing = new RouterCache();
  private readonly baseRouter: Router;
  private n = 0;
  private stopped = false;
  private readonly indexer: SampleIndexer;

  constructor(private readonly o: WriteLoadOptions) {
    this.rand = mulberry32(o.seed);
    this.baseRouter = new Router(o.base);
    this.indexer = new SampleIndexer(o.client.os, o.base.index, o.metaTtlMs !== undefined ? { metaTtlMs: o.metaTtlMs } : {});
  }

  /** run performs operations until stop() is called; rejects on the first write that fails for another reason than the block. */
  async run(): Promise<void> {
    while (!this.stopped) await this.step();
  }

  stop(): void {
    this.stopped = true;
  }

  /** The current router: the index's `_meta` state, read before every operation (as a careful writer does). */
  private async router(): Promise<Router> {
    const meta = await fetchIndexMeta(this.o.client, this.o.base.index);
    if (!meta) throw new Error(`index "${this.o.base.index}" has no geoshard _meta`);
    if (meta.hash !== this.o.base.hash && !meta.migration) {
      // Settled on another file (the migration finished): route with it.
      return new Router(meta.file!);
    }
    return this.routing.routerFor(meta!, this.baseRouter).router;
  }

  /** step performs one operation: create (40%), full update (35%) or delete (25%) of a restaurant with its dishes. */
  async step(): Promise<void> {
    const alive = [...this.truth.entries()].filter(([, t]) => !t.deleted);
    const r = this.rand();
    const path = this.o.paths[this.n % this.o.paths.length];
    if (alive.length < 3 || r < 0.4) {
      const hot = this.rand() < 0.5;
      const pool = hot ? this.o.hot : this.o.any;
      const place = pool[Math.floor(this.rand() * pool.length)];
      const id = `${this.o.prefix}${String(this.n++).padStart(5, '0')}`;
      const t: Truth = { path, place, version: 1, dishes: this.o.dishes ?? 3, deleted: false };
      await this.put(id, t);
      this.truth.set(id, t);
      this.stats.creates++;
      if (hot) this.stats.hot++;
    } else {
      const [id, t] = alive[Math.floor(this.rand() * alive.length)];
      if (this.o.hot.includes(t.place)) this.stats.hot++;
      if (r < 0.75) {
        const next = { ...t, version: t.version + 1 };
        await this.put(id, next);
        this.truth.set(id, next);
        this.stats.updates++;
      } else {
        await this.remove(id, t);
        this.truth.set(id, { ...t, deleted: true });
        this.stats.deletes++;
      }
      this.n++;
    }
  }

  /** The documents of restaurant `id` at version t.version (its name and its dishes' names carry the version). */
  private docs(id: string, t: Truth, routing: string): Doc[] {
    const p = t.place;
    const r: Restaurant = { ...p, id, name: `${p.name} (writer ${id} v${t.version})`, dishCount: t.dishes };
    const out = [restaurantDoc(r, routing)];
    for (let k = 0; k < t.dishes; k++) {
      out.push(
        dishDoc(
          { id: `${id}-d${k}`, restaurantId: id, name: `dish ${k} v${t.version}`, cuisine: p.cuisines[0], diets: [], allergens: [], ingredients: ['salt'], calories: 100 + t.version, priceCents: 500 + k },
          routing,
          r,
        ),
      );
    }
    return out;
  }

  private async put(id: string, t: Truth): Promise<void> {
    if (t.path === 'routed') {
      // The package's bulk writer: each document to every owner of its point (a put of the whole
      // restaurant with its dishes, as an indexer that owns its documents sends them).
      const p = t.place;
      const report = await this.indexer.bulk(this.docs(id, t, '').map((d) => ({ id: d.id, lat: p.lat, lng: p.lng, source: d.source })));
      if (report.failed > 0) throw new Error(`writer routed put of ${id} failed: ${JSON.stringify(report.results.filter((r) => !r.ok).slice(0, 2))}`);
    } else {
      // Routing is decided for each attempt (by the pipeline when there is one, else as it would):
      // a retry after the write block must not keep the owner of an older epoch.
      await this.bulk(async () => {
        const router = await this.router();
        const routing = this.o.pipeline ? null : router.readShard(t.place.lat, t.place.lng).name;
        let body = '';
        for (const d of this.docs(id, t, routing ?? '')) {
          const source = routing === null && d.source.shard !== undefined ? (({ shard: _s, cell: _c, ...rest }) => rest)(d.source as Record<string, unknown>) : d.source;
          body += this.indexLine({ ...d, source }, routing);
        }
        return body;
      }, 'plain put');
    }
  }

  private indexLine(d: Doc, routing: string | null): string {
    return JSON.stringify({ index: { _index: this.o.base.index, _id: d.id, ...(routing !== null ? { routing } : {}) } }) + '\n' + JSON.stringify(d.source) + '\n';
  }

  private async remove(id: string, t: Truth): Promise<void> {
    const ids = [id, ...Array.from({ length: t.dishes }, (_, k) => `${id}-d${k}`)];
    let body = '';
    if (t.path === 'routed') {
      await this.indexer.deleteRestaurant(id);
      return;
    } else {
      // What a plain client does: refresh, find the documents, delete each copy found with its own routing.
      await this.o.client.request('POST', `/${encodeURIComponent(this.o.base.index)}/_refresh`, { timeoutMs: 60_000 });
      for (const h of await this.find(ids)) body += JSON.stringify({ delete: { _index: this.o.base.index, _id: h._id, routing: h._routing } }) + '\n';
    }
    if (body) await this.bulk(async () => body, `${t.path} delete`);
  }

  private async find(ids: string[]): Promise<{ _id: string; _routing: string; _shard?: string; _source?: Record<string, unknown> }[]> {
    const { body } = await this.o.client.request<{ hits: { hits: { _id: string; _routing: string; _shard?: string; _source?: Record<string, unknown> }[] } }>('POST', `/${encodeURIComponent(this.o.base.index)}/_search`, {
      body: { size: 10_000, explain: true, query: { ids: { values: ids } }, _source: ['name'] },
    });
    return body.hits.hits;
  }

  /** Sends a bulk body (made anew for each attempt) until every item is acknowledged, waiting out the write block; throws on any other failure. */
  private async bulk(make: () => Promise<string>, what: string): Promise<void> {
    const t0 = performance.now();
    for (let attempt = 0; ; attempt++) {
      const body = await make();
      let res;
      try {
        res = await this.o.client.request<{ errors: boolean; items: Record<string, { status: number; error?: { type?: string; reason?: string } }>[] }>('POST', '/_bulk', { query: { refresh: 'false' }, body });
      } catch (e) {
        if (e instanceof OpenSearchError && e.status === 429 && attempt < 200) {
          await sleep(50);
          continue;
        }
        throw e;
      }
      const items = res.body.items.map((it) => Object.values(it)[0]);
      const blocked = items.some((i) => i.status === 403 && i.error?.type === 'cluster_block_exception');
      const failed = items.filter((i) => i.status >= 300 && !(i.status === 404) && !(i.status === 403 && i.error?.type === 'cluster_block_exception') && i.status !== 429);
      if (failed.length > 0) throw new Error(`writer ${what} failed: ${failed.slice(0, 3).map((f) => `${f.status} ${f.error?.type}: ${f.error?.reason}`).join('; ')}`);
      if (!blocked && !items.some((i) => i.status === 429)) {
        if (attempt > 0) this.stats.longestBlockedMs = Math.max(this.stats.longestBlockedMs, performance.now() - t0);
        return;
      }
      if (blocked) this.stats.blockedRetries++;
      if (attempt > 2000) throw new Error(`writer ${what}: still write-blocked after ${Math.round(performance.now() - t0)} ms`);
      // Every item is sent again: index and delete are idempotent by id.
      await sleep(25);
    }
  }

  /**
   * check compares the index with what was acknowledged: `final` routes
   * where each document must be (the settled file after the migration).
   * Refreshes first.
   */
  async check(final: Router): Promise<WriteCheck> {
    const { client } = this.o;
    const index = this.o.base.index;
    await client.request('POST', `/${encodeURIComponent(index)}/_refresh`);
    const out: WriteCheck = { lost: [], duplicated: [], orphaned: [], misplaced: [], stale: [], checked: 0 };
    // Everything held under the writer's ids, with each copy's routing.
    const held = new Map<string, { routing: string; name: string }[]>();
    // One page (ids are few): search_after on `id` alone could skip a second copy of an id at a page's edge.
    const { body } = await client.request<{ hits: { hits: { _id: string; _routing: string; _source: { name: string } }[] } }>('POST', `/${encodeURIComponent(index)}/_search`, {
      body: { size: 10_000, query: { prefix: { id: this.o.prefix } }, _source: ['name'] },
    });
    if (body.hits.hits.length >= 10_000) throw new Error('WriteLoad.check reads at most 9,999 documents: write fewer');
    for (const h of body.hits.hits) held.set(h._id, [...(held.get(h._id) ?? []), { routing: h._routing, name: h._source.name }]);
    const expected = new Map<string, { routing: string; name: string }>();
    for (const [id, t] of this.truth) {
      if (t.deleted) continue;
      const routing = final.route(t.place.lat, t.place.lng).name;
      for (const d of this.docs(id, t, routing)) expected.set(d.id, { routing, name: String(d.source.name) });
    }
    for (const [id, want] of expected) {
      out.checked++;
      const copies = held.get(id) ?? [];
      if (copies.length === 0) out.lost.push(id);
      else if (copies.length > 1) out.duplicated.push(`${id} on ${copies.map((c) => c.routing).join(', ')}`);
      else {
        if (copies[0].routing !== want.routing) out.misplaced.push(`${id} on ${copies[0].routing}, expected ${want.routing}`);
        if (copies[0].name !== want.name) out.stale.push(`${id}: "${copies[0].name}", expected "${want.name}"`);
      }
    }
    for (const [id, copies] of held) if (!expected.has(id)) out.orphaned.push(`${id} on ${copies.map((c) => c.routing).join(', ')}${this.truth.get(id.replace(/-d\d+$/, ''))?.deleted ? ` (deleted by the ${this.truth.get(id.replace(/-d\d+$/, ''))!.path} path)` : ''}`);
    return out;
  }

  /** cleanup deletes every document under the writer's ids (from every shard), so the index holds its sample again. */
  async cleanup(): Promise<number> {
    const { client } = this.o;
    const index = this.o.base.index;
    let deleted = 0;
    for (;;) {
      await client.request('POST', `/${encodeURIComponent(index)}/_refresh`);
      const { body } = await client.request<{ hits: { hits: { _id: string; _routing: string }[] } }>('POST', `/${encodeURIComponent(index)}/_search`, { body: { size: 5000, query: { prefix: { id: this.o.prefix } }, _source: false } });
      const hits = body.hits.hits;
      if (hits.length === 0) break;
      const dels = hits.map((h) => JSON.stringify({ delete: { _index: index, _id: h._id, routing: h._routing } }) + '\n').join('');
      await this.bulk(async () => dels, 'cleanup');
      deleted += hits.length;
    }
    await client.request('POST', `/${encodeURIComponent(index)}/_refresh`);
    return deleted;
  }
}
