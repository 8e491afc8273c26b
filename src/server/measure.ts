/**
 * Measuring what routing buys, on a real cluster: the one place that runs a
 * search many times on both plans and reads what it cost the nodes. Used by
 * POST /api/measure (api.ts; the Live panel's Measure action and `geoshard
 * bench`) and by the benches (bench/live.bench.ts, bench/bulk.bench.ts read
 * the nodes' CPU with readNodeStats).
 *
 * measurePlans, for one search and its two plans (routed, all shards):
 *   1. one at a time: `runs` searches per plan, alternating search by search
 *      (which plan goes first alternates too); the first warmupRunsOf(runs) of
 *      each plan are measured and discarded (cold caches, cold code paths);
 *      every pair's answers are compared (compareParts). Wall time p50 / p99
 *      and OpenSearch's `took` over the kept runs.
 *   2. several in flight: `runs` searches per plan again, `concurrency` in
 *      flight, in four blocks routed / all / all / routed (so a load that rises
 *      or falls during the phase weighs on both plans alike); the nodes' CPU
 *      (`_nodes/stats/os,process`, process.cpu.total_in_millis summed over the
 *      nodes) is read before and after each block. CPU per search and searches
 *      per second per plan.
 * The request cache is off for every search (the figure is the search's work,
 * not a cached answer). The load average comes from the same node stats.
 */
import type { Router } from '../core/index.ts';
import type { OpenSearchClient } from './opensearch.ts';
import { runSearch, compareParts, type Plan, type SearchPart } from './search.ts';
import { gain, keptRuns, summarise, warmupRunsOf } from './measureStats.ts';
import type { LoadAverage, MeasureSide, SearchParams } from './wire.ts';

/** One reading of the nodes' statistics. */
export interface NodeStatsReading {
  /** CPU time (ms) the OpenSearch processes have used so far, summed over the nodes. */
  cpuMs: number;
  /** The highest 1/5/15-minute load average the nodes report (null when none reports it: not Linux, or a managed service). */
  load: LoadAverage | null;
  /** Nodes that answered. */
  nodes: number;
}

interface RawNodeStats {
  nodes: Record<string, { process?: { cpu?: { total_in_millis?: number } }; os?: { cpu?: { load_average?: Partial<LoadAverage> } } }>;
}

/**
 * readNodeStats reads `_nodes/stats/os,process`: the OpenSearch processes' CPU
 * time so far and the machine's load average. Rejects with OpenSearchError
 * when the request fails.
 */
export async function readNodeStats(client: OpenSearchClient): Promise<NodeStatsReading> {
  const r = await client.get<RawNodeStats>('/_nodes/stats/os,process', { query: { filter_path: 'nodes.*.process.cpu.total_in_millis,nodes.*.os.cpu.load_average' } });
  const nodes = Object.values(r.nodes ?? {});
  let load: LoadAverage | null = null;
  for (const n of nodes) {
    const l = n.os?.cpu?.load_average;
    if (typeof l?.['1m'] !== 'number') continue;
    const x = { '1m': l['1m'], '5m': l['5m'] ?? NaN, '15m': l['15m'] ?? NaN };
    if (!load || x['1m'] > load['1m']) load = x;
  }
  return { cpuMs: nodes.reduce((sum, n) => sum + (n.process?.cpu?.total_in_millis ?? 0), 0), load, nodes: nodes.length };
}

/** readProcessors returns the most processors any node has (`_nodes/os`, os.available_processors), or null when none says. */
export async function readProcessors(client: OpenSearchClient): Promise<number | null> {
  const r = await client.get<{ nodes?: Record<string, { os?: { available_processors?: number } }> }>('/_nodes/os', { query: { filter_path: 'nodes.*.os.available_processors' } });
  const xs = Object.values(r.nodes ?? {}).map((n) => n.os?.available_processors).filter((x): x is number => typeof x === 'number');
  return xs.length > 0 ? Math.max(...xs) : null;
}

/** What to measure and how. */
export interface MeasureOptions {
  /** Searches per plan in each phase, an integer >= 2 (the API takes 4..200). */
  runs: number;
  /** Searches in flight in the throughput phase, an integer >= 1. */
  concurrency: number;
  /** The index's dishes carry `restaurant_location` (runSearch's `located`). */
  located: boolean;
  /** Deadline OpenSearch gets per search (ms). */
  timeoutMs: number;
  /** Called after every search with how many of the measurement's searches are done. */
  onProgress?: (done: number, total: number) => void;
}

/** measurePlans' result: both plans' figures, their gains, what the answers said and the load. */
export interface MeasureFigures {
  warmupRuns: number;
  routed: MeasureSide;
  all: MeasureSide;
  gain: { p50: number | null; p99: number | null; cpu: number | null; throughput: number | null };
  identical: boolean;
  differences: string[];
  partialRuns: number;
  load: { before: LoadAverage | null; after: LoadAverage | null; nodes: number };
  /** Searches run in all (both plans, both phases). */
  searches: number;
}

/**
 * measurePlans measures one search on its routed and all-shards plans (see the
 * file's comment for the two phases). Rejects with OpenSearchError when a
 * search fails outright (a partial answer is counted in partialRuns, not
 * thrown). When the node stats cannot be read, CPU per search and the load are
 * null and everything else is measured.
 */
export async function measurePlans(client: OpenSearchClient, router: Router, params: SearchParams, plans: { routed: Plan; all: Plan }, opts: MeasureOptions): Promise<MeasureFigures> {
  const warmupRuns = warmupRunsOf(opts.runs);
  const total = 4 * opts.runs;
  let done = 0;
  let partialRuns = 0;
  const search = async (plan: Plan): Promise<SearchPart> => {
    const r = await runSearch(client, router, { ...params, compare: false, profile: false }, plan, { timeoutMs: opts.timeoutMs, located: opts.located, query: { request_cache: 'false' } });
    if (r.status !== 'complete') partialRuns++;
    opts.onProgress?.(++done, total);
    return r;
  };
  const stats = () => readNodeStats(client).catch(() => null);
  const before = await stats();

  // 1. One at a time, alternating search by search.
  const one = { routed: [] as SearchPart[], all: [] as SearchPart[] };
  const differences: string[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const order = i % 2 === 0 ? (['routed', 'all'] as const) : (['all', 'routed'] as const);
    const pair = {} as Record<'routed' | 'all', SearchPart>;
    for (const which of order) pair[which] = await search(plans[which]);
    one.routed.push(pair.routed);
    one.all.push(pair.all);
    const cmp = compareParts(pair.routed, pair.all);
    if (!cmp.identical && differences.length === 0) differences.push(...cmp.differences.map((d) => `run ${i + 1}: ${d}`));
  }

  // 2. Several in flight, blocks routed / all / all / routed.
  const tp = { routed: { n: 0, ms: 0, cpuMs: 0, cpuKnown: true, wall: [] as number[] }, all: { n: 0, ms: 0, cpuMs: 0, cpuKnown: true, wall: [] as number[] } };
  const half = Math.ceil(opts.runs / 2);
  const blocks: { which: 'routed' | 'all'; n: number }[] = [
    { which: 'routed', n: half },
    { which: 'all', n: half },
    { which: 'all', n: opts.runs - half },
    { which: 'routed', n: opts.runs - half },
  ];
  for (const b of blocks) {
    if (b.n === 0) continue;
    const acc = tp[b.which];
    const s0 = await stats();
    const t0 = performance.now();
    let started = 0;
    await Promise.all(
      Array.from({ length: Math.min(opts.concurrency, b.n) }, async () => {
        while (started < b.n) {
          started++;
          const r = await search(plans[b.which]);
          acc.wall.push(r.wallMs);
        }
      }),
    );
    acc.ms += performance.now() - t0;
    acc.n += b.n;
    const s1 = await stats();
    if (s0 && s1) acc.cpuMs += s1.cpuMs - s0.cpuMs;
    else acc.cpuKnown = false;
  }
  const after = await stats();

  const side = (which: 'routed' | 'all'): MeasureSide => {
    const kept = keptRuns(one[which], warmupRuns);
    const l = summarise(kept.map((r) => r.wallMs));
    const t = tp[which];
    const u = summarise(t.wall);
    return {
      shardsAsked: plans[which].shards.length,
      latency: { n: l.n, p50Ms: l.p50Ms, p99Ms: l.p99Ms },
      tookP50Ms: summarise(kept.map((r) => r.took)).p50Ms,
      cpuMsPerSearch: t.cpuKnown ? t.cpuMs / t.n : null,
      searchesPerS: t.n / (t.ms / 1000),
      underLoad: { n: u.n, p50Ms: u.p50Ms, p99Ms: u.p99Ms },
    };
  };
  const routed = side('routed');
  const all = side('all');
  return {
    warmupRuns,
    routed,
    all,
    gain: {
      p50: gain('cost', routed.latency.p50Ms, all.latency.p50Ms),
      p99: gain('cost', routed.latency.p99Ms, all.latency.p99Ms),
      cpu: routed.cpuMsPerSearch === null || all.cpuMsPerSearch === null ? null : gain('cost', routed.cpuMsPerSearch, all.cpuMsPerSearch),
      throughput: gain('rate', routed.searchesPerS, all.searchesPerS),
    },
    identical: differences.length === 0,
    differences,
    partialRuns,
    load: { before: before?.load ?? null, after: after?.load ?? null, nodes: after?.nodes ?? before?.nodes ?? 0 },
    searches: done,
  };
}
