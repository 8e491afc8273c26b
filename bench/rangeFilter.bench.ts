/**
 * `npx tsx bench/rangeFilter.bench.ts [--rounds R] [--copies K]`: how `geoshard migrate` finds
 * the documents of a moving range on an index of any shape (src/opensearch/rangeFilter.ts), the
 * Painless script alone (the baseline: it runs on every document of the owner's shard) against
 * the script behind its prefilter (the range's S2 cells' bounding boxes as geo_bounding_box
 * queries, answered from the BKD tree), interleaved round by round so the machine's load hits
 * both alike.
 *
 * The index: `gs-range-flat`, made here if missing: K copies (default 4) of every gazetteer
 * place, jittered up to ~1 km, as flat documents (a geo_point `geo`), routed by the bundled
 * boundary file's owners (15 shards): the shape `geoshard reindex` leaves. The ranges: for each
 * shard, the last tenth of its span of the curve (a boundary moved back by a tenth), counted on
 * the owner's routing with the two filters, as the migration's `_count`, pages and checks query.
 * Both filters must count the same documents, or the bench fails. Needs a node (OPENSEARCH_URL).
 */
import os from 'node:os';
import { derivedFile, liveClient } from '../src/testing/testkit.ts';
import { indexMeta, indexSettings } from '../src/opensearch/indexSpec.ts';
import { CELL_COUNT, Router } from '../src/core/index.ts';
import { tokenOfOrdinal } from '../src/core/cells.ts';
import { mulberry32 } from '../src/core/prng.ts';
import { loadGazetteer } from '../src/data/places.ts';
import { cellRangeFilter, rangeScriptQuery, type CellRange } from '../src/opensearch/rangeFilter.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ROUNDS = Number(option('rounds') ?? 3);
const COPIES = Number(option('copies') ?? 4);
const INDEX = 'gs-range-flat';
const client = liveClient();
const file = derivedFile(INDEX);
const router = new Router(file);

async function ensureIndex(): Promise<number> {
  const want = loadGazetteer().length * COPIES;
  const has = await client.request<{ count: number }>('GET', `/${INDEX}/_count`, { okStatuses: [404] });
  if (has.status === 200 && has.body.count === want) return want;
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.admin('PUT', `/${INDEX}`, { body: { settings: { index: indexSettings(file, 0) }, mappings: { _meta: indexMeta(file), properties: { geo: { type: 'geo_point' } } } } });
  const rand = mulberry32(78);
  let lines: string[] = [];
  const flush = async () => {
    if (lines.length === 0) return;
    const { body } = await client.request<{ errors: boolean }>('POST', `/${INDEX}/_bulk`, { body: lines.join('\n') + '\n', timeoutMs: 300_000 });
    if (body.errors) throw new Error(`bulk into ${INDEX} failed`);
    lines = [];
  };
  for (let k = 0; k < COPIES; k++) {
    for (const c of loadGazetteer()) {
      const lat = Math.max(-89.99, Math.min(89.99, c.loc.coordinates[1] + (rand() - 0.5) * 0.02));
      const lng = Math.max(-180, Math.min(180, c.loc.coordinates[0] + (rand() - 0.5) * 0.02));
      lines.push(JSON.stringify({ index: { _id: `${c.cityId}-${k}`, routing: router.readShard(lat, lng).name } }), JSON.stringify({ geo: { lat, lon: lng } }));
      if (lines.length >= 10_000) await flush();
    }
  }
  await flush();
  await client.request('POST', `/${INDEX}/_refresh`, { timeoutMs: 300_000 });
  await client.request('POST', `/${INDEX}/_forcemerge`, { query: { max_num_segments: '1' }, timeoutMs: 900_000 });
  return want;
}

/** The moving ranges: the last tenth of every shard's span of the curve, on its owner. */
function ranges(): { owner: string; range: CellRange }[] {
  return router.shards.map((s, i) => {
    const start = router.starts[i];
    const end = i + 1 < router.numberOfShards ? router.starts[i + 1] : CELL_COUNT;
    const cut = end - Math.max(1, Math.floor((end - start) / 10));
    return { owner: s.name, range: { start: tokenOfOrdinal(cut)!, end: tokenOfOrdinal(end) } };
  });
}

// The range script over every document of the owner (no prefilter), as the filter runs it behind its boxes.
const scriptOnly = (r: CellRange) => rangeScriptQuery({ location: 'geo', childLocation: null }, r);
const boxed = (r: CellRange) => cellRangeFilter({ location: 'geo', childLocation: null, stamp: false }, r);

/**
 * count times one `_count` of a range on its owner, as the migration asks it. The node's caches
 * are cleared first (its request cache would answer a repeated count at once, its query cache a
 * repeated filter), so each count does the work a migration's first query of a range does.
 */
async function count(owner: string, filter: Record<string, unknown>): Promise<{ n: number; ms: number }> {
  await client.request('POST', `/${INDEX}/_cache/clear`, { query: { query: 'true', request: 'true' } });
  const t0 = performance.now();
  const { body } = await client.request<{ count: number }>('POST', `/${INDEX}/_search`, { query: { routing: owner, request_cache: 'false' }, body: { size: 0, track_total_hits: true, query: { bool: { filter: [{ term: { _routing: owner } }, filter] } } }, timeoutMs: 300_000 }).then((r) => ({ body: { count: (r.body as unknown as { hits: { total: { value: number } } }).hits.total.value } }));
  return { n: body.count, ms: performance.now() - t0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const docs = await ensureIndex();
  const rs = ranges();
  console.log(`range filter bench: ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${INDEX}: ${docs.toLocaleString('en-US')} documents, ${rs.length} ranges, ${ROUNDS} rounds`);
  // Warm both paths once (compiles the script, loads the BKD and doc values).
  for (const r of rs.slice(0, 2)) await count(r.owner, scriptOnly(r.range)), await count(r.owner, boxed(r.range));
  const t = { script: [] as number[], boxed: [] as number[] };
  let matched = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let s = 0;
    let b = 0;
    for (const [k, r] of rs.entries()) {
      // Alternate which filter goes first, so neither always meets a warmer cache.
      const first = (round + k) % 2 === 0;
      const x = first ? await count(r.owner, scriptOnly(r.range)) : null;
      const y = await count(r.owner, boxed(r.range));
      const z = x ?? (await count(r.owner, scriptOnly(r.range)));
      if (z.n !== y.n) throw new Error(`range ${k} on ${r.owner}: the script counts ${z.n}, the boxed filter ${y.n}`);
      if (round === 0) matched += y.n;
      s += z.ms;
      b += y.ms;
    }
    t.script.push(s);
    t.boxed.push(b);
    console.log(`round ${round + 1}: all ${rs.length} ranges: script alone ${s.toFixed(0)} ms, behind the boxes ${b.toFixed(0)} ms (${(b / s).toFixed(2)}x)`);
  }
  const ms = median(t.script);
  const mb = median(t.boxed);
  console.log(`\n${matched.toLocaleString('en-US')} documents in the ${rs.length} ranges (each counted alike by both). Median of ${ROUNDS} rounds: script alone ${ms.toFixed(0)} ms, behind the boxes ${mb.toFixed(0)} ms: ${(mb / ms).toFixed(2)}x the baseline (${(ms / mb).toFixed(1)} times faster). Load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await client.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
