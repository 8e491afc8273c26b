/**
 * Measuring what routing buys, on a real cluster: the one place that runs a
 * search many times on both plans and reads what it cost the nodes. Used by
 * POST /api/measure (api.ts; the Live panel's Measure action and `geoshard
 * bench`) and by the benches (bench/live.bench.ts, bench/bulk.bench.ts read
 * the nodes' CPU with readNodeStats).
 *
 * measurePlans, for one search and its plans (routed by this server, all shards, and routed by
 * the cluster's search pipeline where the index has one that routes):
 *   1. one at a time: `runs` searches per plan, in turn search by search
 *      (which plan goes first rotates); the first warmupRunsOf(runs) of
 *      each plan are measured and discarded (cold caches, cold code paths);
 *      every pair's answers are compared (compareParts). Wall time p50 / p99
 *      and OpenSearch's `took` over the kept runs.
 *   2. several in flight: `runs` searches per plan again (more when a block
 *      would last less than MIN_BLOCK_MS), `concurrency` in flight, in four
 *      blocks routed / all / all / routed (so a load that rises or falls during
 *      the phase weighs on both plans alike); the nodes' CPU
 *      (`_nodes/stats/os,process`, process.cpu.total_in_millis summed over the
 *      nodes) is read between blocks, each reading computed by the nodes after
 *      the block before it ended (readingAfter). CPU per search and searches
 *      per second per plan. The CPU is every search's on the nodes, anyone's:
 *      on a shared cluster other clients' work counts too, alike for both plans.
 * The request cache is off for every search (the figure is the search's work,
 * not a cached answer). The load average comes from the same node stats.
 */
import type { Router } from '../core/index.ts';
import type { OpenSearchClient } from '../cluster/client.ts';
import type { IndexConfig } from '../opensearch/indexConfig.ts';
import { gain, keptRuns, summarise, warmupRunsOf } from './measureStats.ts';
import type { LoadAverage, MeasureSide, SearchParams } from './wire.ts';
import { runSearch, type Plan, type AnySearchPart } from './search/searchRun.ts';
import { compareParts } from './search/compare.ts';

/** One reading of the nodes' statistics. */
export interface NodeStatsReading {
  /** CPU time (ms) the OpenSearch processes have used so far, summed over the nodes. */
  cpuMs: number;
  /** Per node id: its process CPU so far (ms) and when the node computed it (its `process.timestamp`, ms since the epoch on the node's clock). */
  perNode: Record<string, { cpuMs: number; atMs: number }>;
  /** The highest 1/5/15-minute load average the nodes report (null when none reports it: not Linux, or a managed service). */
  load: LoadAverage | null;
  /** Nodes that answered. */
  nodes: number;
}

interface RawNodeStats {
  nodes: Record<string, { process?: { timestamp?: number; cpu?: { total_in_millis?: number } }; os?: { cpu?: { load_average?: Partial<LoadAverage> } } }>;
}

/**
 * readNodeStats reads `_nodes/stats/os,process`: the OpenSearch processes' CPU
 * time so far and the machine's load average. A node computes these at most
 * once per `monitor.process.refresh_interval` (1 s by default) and answers
 * from its cache in between (`atMs` says when it computed them): two readings
 * less than that apart can be the same, so a window shorter than it reads 0 ms
 * of CPU; cpuBetween brackets a window properly. Rejects with OpenSearchError
 * when the request fails.
 */
export async function readNodeStats(client: OpenSearchClient): Promise<NodeStatsReading> {
  const r = await client.get<RawNodeStats>('/_nodes/stats/os,process', { query: { filter_path: 'nodes.*.process.timestamp,nodes.*.process.cpu.total_in_millis,nodes.*.os.cpu.load_average' } });
  const perNode: NodeStatsReading['perNode'] = {};
  let load: LoadAverage | null = null;
  for (const [id, n] of Object.entries(r.nodes ?? {})) {
    perNode[id] = { cpuMs: n.process?.cpu?.total_in_millis ?? 0, atMs: n.process?.timestamp ?? 0 };
    const l = n.os?.cpu?.load_average;
    if (typeof l?.['1m'] !== 'number') continue;
    const x = { '1m': l['1m'], '5m': l['5m'] ?? NaN, '15m': l['15m'] ?? NaN };
    if (!load || x['1m'] > load['1m']) load = x;
  }
  const nodes = Object.values(perNode);
  return { cpuMs: nodes.reduce((sum, n) => sum + n.cpuMs, 0), perNode, load, nodes: nodes.length };
}

/** A reading and when (performance.now(), ms) its request was sent: it was computed no earlier than that, unless the node answered from its cache. */
export interface TimedReading {
  reading: NodeStatsReading;
  sentAt: number;
}

/** Slack (ms) for comparing the node's millisecond timestamps with the client's clock: without it a reading computed right at the call can look older by a rounding and be waited out for another second. */
const CLOCK_SLACK_MS = 2;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * readingAfter returns a reading every node computed after the moment of the
 * call, so that the CPU between `prev` and it covers all the work done before
 * the call. A node's figure is fresh when its clock moved on from `prev` by at
 * least the time since `prev` was asked, less CLOCK_SLACK_MS (its stats were
 * computed after the call), or when it changed since the first answer this call received (it was
 * computed after that answer was asked). Polls every `pollMs` until each node
 * has a fresh figure: at most about the node's refresh interval (1 s), and
 * gives up after `maxWaitMs` with the last reading. Without `prev`, waits for a
 * reading computed after the call. Nodes absent from `prev` count as fresh.
 */
export async function readingAfter(client: OpenSearchClient, prev: TimedReading | null, pollMs = 50, maxWaitMs = 5000): Promise<TimedReading> {
  const callAt = performance.now();
  let first: NodeStatsReading | null = null;
  for (;;) {
    const sentAt = performance.now();
    const reading = await readNodeStats(client);
    const fresh = Object.entries(reading.perNode).every(([id, n]) => {
      const p = prev?.reading.perNode[id];
      if (prev && !p) return true;
      if (p && n.atMs > p.atMs && n.atMs - p.atMs >= callAt - prev!.sentAt - CLOCK_SLACK_MS) return true;
      const f = first?.perNode[id];
      return f !== undefined && n.atMs !== f.atMs;
    });
    if (fresh || performance.now() - callAt > maxWaitMs) return { reading, sentAt };
    first ??= reading;
    await sleep(pollMs);
  }
}

/** cpuBetween returns the CPU (ms) the nodes present in both readings used between them. */
export function cpuBetween(a: NodeStatsReading, b: NodeStatsReading): number {
  let ms = 0;
  for (const [id, n] of Object.entries(b.perNode)) {
    const m = a.perNode[id];
    if (m) ms += n.cpuMs - m.cpuMs;
  }
  return ms;
}

/** readProcessors returns the most processors any node has (`_nodes/os`, os.available_processors), or null when none says. */
export async function readProcessors(client: OpenSearchClient): Promise<number | null> {
  const r = await client.get<{ nodes?: Record<string, { os?: { available_processors?: number } }> }>('/_nodes/os', { query: { filter_path: 'nodes.*.os.available_processors' } });
  const xs = Object.values(r.nodes ?? {}).map((n) => n.os?.available_processors).filter((x): x is number => typeof x === 'number');
  return xs.length > 0 ? Math.max(...xs) : null;
}

/** Shortest block of the throughput phase (ms): the nodes' process stats refresh once a second, so a shorter block would be mostly the wait for a fresh reading. */
export const MIN_BLOCK_MS = 1000;

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
  /** The index's config when it is not the sample's: its documents are searched by their own fields, as /api/search does (runSearch's `config`). */
  config?: IndexConfig;
}

/** The plans measurePlans compares: routed by this server, every shard, and routed by the cluster's search pipeline when the index has one that routes. */
export type PlanName = 'routed' | 'all' | 'cluster';

/** measurePlans' result: each plan's figures, the gains over every shard, what the answers said and the load. */
export interface MeasureFigures {
  warmupRuns: number;
  routed: MeasureSide;
  all: MeasureSide;
  /** Routed by the cluster (scope cluster), when that plan was given; null otherwise. */
  cluster: MeasureSide | null;
  gain: MeasureGain;
  /** The cluster-routed plan's gains over every shard; null when it was not measured. */
  clusterGain: MeasureGain | null;
  identical: boolean;
  differences: string[];
  partialRuns: number;
  load: { before: LoadAverage | null; after: LoadAverage | null; nodes: number };
  /** Searches run in all (every plan, both phases). */
  searches: number;
}

/** A plan's gains over every shard: all ÷ plan for times and CPU, plan ÷ all for searches per second. */
export interface MeasureGain {
  p50: number | null;
  p99: number | null;
  cpu: number | null;
  throughput: number | null;
}

/**
 * measurePlans measures one search on its routed and all-shards plans, and on the cluster-routed
 * plan when `plans.cluster` is given (see the file's comment for the two phases; with three plans
 * the one-at-a-time order rotates over them and the blocks run routed / all / cluster / cluster /
 * all / routed). Every plan's answer is compared with every shard's. Rejects with OpenSearchError
 * when a search fails outright (a partial answer is counted in partialRuns, not thrown). When the
 * node stats cannot be read, CPU per search and the load are null and everything else is measured.
 */
export async function measurePlans(client: OpenSearchClient, router: Router, params: SearchParams, plans: { routed: Plan; all: Plan; cluster?: Plan }, opts: MeasureOptions): Promise<MeasureFigures> {
  const warmupRuns = warmupRunsOf(opts.runs);
  const names: PlanName[] = plans.cluster ? ['routed', 'all', 'cluster'] : ['routed', 'all'];
  const planOf = (which: PlanName): Plan => (which === 'cluster' ? plans.cluster! : plans[which]);
  let done = 0;
  let partialRuns = 0;
  const search = async (plan: Plan): Promise<AnySearchPart> => {
    const r = await runSearch(client, router, { ...params, compare: false, profile: false }, plan, { timeoutMs: opts.timeoutMs, located: opts.located, query: { request_cache: 'false' }, ...(opts.config ? { config: opts.config } : {}) });
    if (r.status !== 'complete') partialRuns++;
    done++;
    return r;
  };
  const stats = () => readNodeStats(client).catch(() => null);
  const before = await stats();

  // 1. One at a time, the plans in a rotating order search by search.
  const one: Record<PlanName, AnySearchPart[]> = { routed: [], all: [], cluster: [] };
  const differences: string[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const order = names.map((_, k) => names[(k + i) % names.length]);
    const got = {} as Record<PlanName, AnySearchPart>;
    for (const which of order) got[which] = await search(planOf(which));
    for (const which of names) one[which].push(got[which]);
    for (const which of names) {
      if (which === 'all') continue;
      const cmp = compareParts(got[which], got.all);
      if (!cmp.identical && differences.length === 0) differences.push(...cmp.differences.map((d) => `run ${i + 1}${which === 'cluster' ? ' (routed by the cluster)' : ''}: ${d}`));
    }
  }

  // 2. Several in flight, blocks in a palindrome (routed / all / all / routed, or with the cluster
  // plan routed / all / cluster / cluster / all / routed). Each block's CPU is read between two
  // readings that bracket it (readingAfter: a node answers its stats from a 1 s cache), so each
  // block also runs for at least that long; the windows follow each other, the reading after one
  // block is the reading before the next.
  const fresh = () => ({ n: 0, ms: 0, cpuMs: 0, cpuKnown: true, wall: [] as number[] });
  const tp: Record<PlanName, ReturnType<typeof fresh>> = { routed: fresh(), all: fresh(), cluster: fresh() };
  const half = Math.ceil(opts.runs / 2);
  const blocks: { which: PlanName; n: number }[] = [...names.map((which) => ({ which, n: half })), ...[...names].reverse().map((which) => ({ which, n: opts.runs - half }))];
  let mark: TimedReading | null = await readingAfter(client, null).catch(() => null);
  for (const b of blocks) {
    if (b.n === 0) continue;
    const acc = tp[b.which];
    const t0 = performance.now();
    let started = 0;
    await Promise.all(
      Array.from({ length: Math.min(opts.concurrency, b.n) }, async () => {
        while (started < b.n || performance.now() - t0 < MIN_BLOCK_MS) {
          started++;
          const r = await search(planOf(b.which));
          acc.wall.push(r.wallMs);
        }
      }),
    );
    acc.ms += performance.now() - t0;
    acc.n += started;
    const next: TimedReading | null = mark ? await readingAfter(client, mark).catch(() => null) : null;
    if (mark && next) acc.cpuMs += cpuBetween(mark.reading, next.reading);
    else acc.cpuKnown = false;
    mark = next;
  }
  const after = mark?.reading ?? (await stats());

  const side = (which: PlanName): MeasureSide => {
    const kept = keptRuns(one[which], warmupRuns);
    const l = summarise(kept.map((r) => r.wallMs));
    const t = tp[which];
    const u = summarise(t.wall);
    // The cluster's plan asks the shards its search pipeline chose (each answer's report): their mean.
    const asked = which === 'cluster' && kept.length > 0 ? kept.reduce((sum, r) => sum + r.shardsAsked.length, 0) / kept.length : planOf(which).shards.length;
    return {
      shardsAsked: asked,
      latency: { n: l.n, p50Ms: l.p50Ms, p99Ms: l.p99Ms },
      tookP50Ms: summarise(kept.map((r) => r.took)).p50Ms,
      cpuMsPerSearch: t.cpuKnown ? t.cpuMs / t.n : null,
      searchesPerS: t.n / (t.ms / 1000),
      underLoad: { n: u.n, p50Ms: u.p50Ms, p99Ms: u.p99Ms },
    };
  };
  const all = side('all');
  const gainOf = (x: MeasureSide): MeasureGain => ({
    p50: gain('cost', x.latency.p50Ms, all.latency.p50Ms),
    p99: gain('cost', x.latency.p99Ms, all.latency.p99Ms),
    cpu: x.cpuMsPerSearch === null || all.cpuMsPerSearch === null ? null : gain('cost', x.cpuMsPerSearch, all.cpuMsPerSearch),
    throughput: gain('rate', x.searchesPerS, all.searchesPerS),
  });
  const routed = side('routed');
  const cluster = plans.cluster ? side('cluster') : null;
  return {
    warmupRuns,
    routed,
    all,
    cluster,
    gain: gainOf(routed),
    clusterGain: cluster ? gainOf(cluster) : null,
    identical: differences.length === 0,
    differences,
    partialRuns,
    load: { before: before?.load ?? null, after: after?.load ?? null, nodes: after?.nodes ?? before?.nodes ?? 0 },
    searches: done,
  };
}
