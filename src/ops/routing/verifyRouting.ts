/**
 * The real-engine check of routing: ask OpenSearch where each shard name goes
 * (`_search_shards?routing=<name>`) and what each shard holds, and compare with
 * what the core predicts from the boundary file alone.
 */
import type { Router } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { predictCounts, sampleOf } from '../../data/sample.ts';
import { checkRouting } from './routingCheck.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import type { RoutingFingerprint } from '../../opensearch/meta.ts';
import { JOIN_FIELD, PARENT } from '../../opensearch/sampleIndex.ts';
import type { IndexMeta } from '../../opensearch/meta.ts';

/** Where OpenSearch sends one shard name. */
export interface NameCheck {
  /** Key-order index of the shard in the boundary file. */
  index: number;
  name: string;
  /** The shard number the boundary file declares for the name. */
  declared: number;
  /** The shard numbers OpenSearch's `_search_shards` returned for the name (one when all is well; -1 for a shard with no started copy). */
  actual: number[];
  ok: boolean;
}

/** One shard's documents: in the index and as predicted for the seeded sample. */
export interface CountCheck {
  /** OpenSearch shard number. */
  shard: number;
  name: string;
  /** Documents on the shard (`_cat/shards` docs). */
  docs: number;
  /** Restaurants on the shard (`_count` of the restaurant relation with preference=_shards:<n>). */
  restaurants: number;
  predictedRestaurants: number;
  predictedDishes: number;
  ok: boolean;
}

/** The result of verifyRouting. */
export interface VerifyResult {
  index: string;
  /** The index's `_meta` (null if it has none). */
  meta: IndexMeta | null;
  /** Problems that make the check fail, one sentence each. */
  problems: string[];
  names: NameCheck[];
  /** Per-shard counts, or null when there is no complete seeded sample to compare with. */
  counts: CountCheck[] | null;
  /** Why counts were not compared, when they were not. */
  countsSkipped?: string;
  /** The engine and routing setting the names were checked on (absent when the index does not exist). */
  fingerprint?: RoutingFingerprint;
}

/**
 * verifyRouting checks every shard name of the router's boundary file against
 * the live index: it lands on its declared shard, the index has the file's
 * shard count and hash, and (when the index holds a complete seeded sample)
 * each shard holds exactly the restaurants and dishes the core predicts.
 * Throws OpenSearchError when a request fails; a missing index is a problem.
 */
export async function verifyRouting(client: OpenSearchClient, router: Router): Promise<VerifyResult> {
  const file = router.file;
  const index = file.index;
  const path = `/${encodeURIComponent(index)}`;
  const problems: string[] = [];
  const meta = await fetchIndexMeta(client, index);
  if (meta === undefined) {
    return { index, meta: null, problems: [`index "${index}" does not exist: run "geoshard seed" first`], names: [], counts: null };
  }
  if (meta === null) problems.push(`index "${index}" has no geoshard _meta: it was not made by geoshard seed`);
  else if (meta.hash !== file.hash) {
    problems.push(`index "${index}" was made for boundary file ${meta.hash} (version ${meta.version}), not the loaded ${file.hash} (version ${file.version})`);
  }
  const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`${path}/_settings`);
  const actualN = Number(Object.values(settings)[0]?.settings.index.number_of_shards);
  if (actualN !== file.numberOfShards) problems.push(`index "${index}" has ${actualN} shards; the boundary file declares ${file.numberOfShards}`);

  const routing = await checkRouting(client, router);
  const wrongOf = new Map(routing.misroutes.map((m) => [m.index, m.actual]));
  const names: NameCheck[] = router.shards.map((s) => {
    const actual = wrongOf.get(s.index) ?? [s.shard];
    return { index: s.index, name: s.name, declared: s.shard, actual, ok: !wrongOf.has(s.index) };
  });
  for (const n of names) {
    if (n.ok) continue;
    const where = n.actual.includes(-1) ? 'a shard with no started copy (unassigned?)' : `OpenSearch shard ${n.actual.join(',')}`;
    problems.push(`shard name "${n.name}" (shards[${n.index}]) lands on ${where}, not the declared ${n.declared}`);
  }
  if (routing.status === 'routing-mismatch') problems.push(routing.message);
  const fingerprint = routing.fingerprint;

  const sample = meta?.sample;
  if (!sample || meta?.hash !== file.hash) {
    return { index, meta: meta ?? null, problems, names, fingerprint, counts: null, countsSkipped: sample ? 'the index belongs to another boundary file' : 'the index has no seeded sample recorded in _meta' };
  }
  if (!sample.complete) {
    problems.push(`the last seed of "${index}" did not complete (${sample.restaurants} restaurants asked): run "geoshard seed" again`);
    return { index, meta, problems, names, fingerprint, counts: null, countsSkipped: 'the last seed did not complete' };
  }
  const predicted = predictCounts(router, sampleOf(sample.restaurants), sample.dishesPerRestaurant);
  const cat = await client.get<{ shard: string; prirep: string; state: string; docs: string | null }[]>(`/_cat/shards/${encodeURIComponent(index)}`, { query: { format: 'json', h: 'shard,prirep,state,docs' } });
  const docsOf = new Map<number, number>();
  for (const row of cat) if (row.prirep === 'p') docsOf.set(Number(row.shard), Number(row.docs ?? NaN));
  const counts: CountCheck[] = [];
  for (const s of [...router.shards].sort((a, b) => a.shard - b.shard)) {
    const restaurants = (await client.request<{ count: number }>('POST', `${path}/_count`, { query: { preference: `_shards:${s.shard}` }, body: { query: { term: { [JOIN_FIELD]: PARENT } } } })).body.count;
    const docs = docsOf.get(s.shard) ?? NaN;
    const pr = predicted.restaurants[s.shard];
    const pd = predicted.dishes[s.shard];
    const ok = docs === pr + pd && restaurants === pr;
    counts.push({ shard: s.shard, name: s.name, docs, restaurants, predictedRestaurants: pr, predictedDishes: pd, ok });
    if (!ok) problems.push(`OpenSearch shard ${s.shard} ("${s.name}") holds ${restaurants} restaurants and ${docs - restaurants} dishes; the core predicts ${pr} and ${pd}`);
  }
  return { index, meta, problems, names, fingerprint, counts };
}
