/**
 * The traffic recorder: at a fixed interval (default 60 s, GEOSHARD_TRAFFIC_INTERVAL_S), read the
 * index's per-shard counters (shardStats.ts) and write them as the sample of the current bucket
 * into the history (history.ts), unless a recorder wrote that bucket already; once an hour,
 * delete what is older than the retention. The explorer's server runs one while it runs
 * (src/server/api/traffic.ts); `geoshard traffic --record` runs one for a cluster no explorer
 * watches. Samples are taken just after each bucket boundary (a multiple of the interval since
 * the epoch), so recorders with the same interval sample the same buckets.
 *
 * A failed sample (the cluster down, a privilege missing) is reported to onSample and tried
 * again at the next boundary; nothing is thrown from the timer.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { roleAdvice } from '../../cluster/privileges.ts';
import type { TrafficRange, TrafficRecorderStatus } from '../../core/traffic.ts';
import { readCellCounters } from './cellCounters.ts';
import { ensureHistoryIndex, historyIndexReady, pruneHistory, recordSample } from './history.ts';
import { readShardCounters } from './shardStats.ts';
import type { CellsRecord, TrafficSnapshot } from './snapshots.ts';

/** What to sample: the index as the boundary file names it, the file's hash and its ranges. */
export interface SampleTarget {
  index: string;
  hash: string;
  ranges: TrafficRange[];
}

/** The outcome of one sample. */
export type SampleOutcome =
  /**
   * Written as its bucket's document; `pruned`: old documents deleted with it (0 unless a prune
   * was due); `cells`: what became of the plugin's per-cell counts of the interval before it
   * (CellsOutcome).
   */
  | { status: 'recorded'; sample: TrafficSnapshot; pruned: number; cells: CellsOutcome }
  /** The bucket (its start, ms) is written already: by another recorder, or by this one earlier in the bucket. */
  | { status: 'exists'; start: number }
  /** Not sampled now, and why (the index drifted from the file, or does not exist). */
  | { status: 'skipped'; reason: string }
  /** The sample failed; the message says why (no credentials in it). */
  | { status: 'failed'; message: string };

/**
 * What a sample did about the plugin's per-cell counts of the interval before it: written as their
 * own record, written already by another recorder, the plugin not installed, the interval no
 * longer held by the nodes (a recorder slower than the plugin's 120 s), or a failure (a missing
 * privilege: the message says which). A failure here never fails the shards sample.
 */
export type CellsOutcome = { status: 'recorded'; record: CellsRecord } | { status: 'exists' } | { status: 'absent' } | { status: 'gone' } | { status: 'failed'; message: string };

/** Words for a CellsOutcome (the recorder's status). */
export function describeCells(o: CellsOutcome): string {
  switch (o.status) {
    case 'recorded':
      return o.record.cells.exact ? 'recorded (exact)' : `recorded (within ${o.record.cells.maxError.searches} searches and ${o.record.cells.maxError.writes} writes a cell)`;
    case 'exists':
      return 'recorded by another recorder';
    case 'absent':
      return 'the geoshard plugin is not installed: per-range counts only';
    case 'gone':
      return 'the plugin no longer holds the interval (it keeps 120 s): sample at least every 110 s for per-cell counts';
    case 'failed':
      return `failed: ${o.message}`;
  }
}

/** Options of a TrafficSampler. */
export interface SamplerOptions {
  client: OpenSearchClient;
  historyIndex: string;
  /** Seconds between samples, > 0. */
  intervalSeconds: number;
  /** Days samples are kept, > 0. */
  retentionDays: number;
  /** What to sample now, or why not (asked before every sample, so a reloaded boundary file is followed). */
  target: () => Promise<SampleTarget | { skip: string }>;
  /** Called with every sample's outcome. */
  onSample?: (o: SampleOutcome) => void;
  /** The clock, ms since the epoch (tests). */
  now?: () => number;
}

/** How often the history is pruned, ms. */
export const PRUNE_EVERY_MS = 3_600_000;

/** A sample is taken this long after its bucket starts, ms: the clock's ticks land inside the bucket. */
const AFTER_BOUNDARY_MS = 200;

/** The recorder's state, for the status of whoever runs it (last: its last SampleOutcome's status). */
export type SamplerStatus = TrafficRecorderStatus;

/** TrafficSampler samples one index's counters into the history at a fixed interval (see the file comment). */
export class TrafficSampler {
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private running = false;
  private ensured = false;
  private writtenStart = -1;
  private lastPruneAt = -Infinity;
  private recorded = 0;
  private lastAt: number | null = null;
  private last: SampleOutcome | null = null;
  private lastCells: string | null = null;

  constructor(private readonly opts: SamplerOptions) {
    if (!(opts.intervalSeconds > 0)) throw new RangeError(`intervalSeconds ${opts.intervalSeconds} is invalid: expected a number of seconds greater than 0`);
    if (!(opts.retentionDays > 0)) throw new RangeError(`retentionDays ${opts.retentionDays} is invalid: expected a number of days greater than 0`);
    this.now = opts.now ?? Date.now;
  }

  /** The interval in ms. */
  private get intervalMs(): number {
    return this.opts.intervalSeconds * 1000;
  }

  /**
   * start takes a sample just after every bucket boundary from the next one on, until stop (not
   * at once: a process that runs for less than an interval, a test's server, writes nothing).
   * The timer does not keep the process alive.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  private schedule(): void {
    if (!this.running) return;
    const now = this.now();
    this.timer = setTimeout(this.tick, this.intervalMs - (now % this.intervalMs) + AFTER_BOUNDARY_MS);
    this.timer.unref?.();
  }

  private tick = (): void => {
    this.chain = this.chain.then(() => this.sampleOnce()).finally(() => this.schedule());
  };

  /** stop ends the schedule and waits for a sample in progress. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain.catch(() => undefined);
  }

  /** status says what the recorder is doing and how its last sample went. */
  status(): SamplerStatus {
    const last = this.last;
    return {
      running: this.running,
      intervalSeconds: this.opts.intervalSeconds,
      historyIndex: this.opts.historyIndex,
      retentionDays: this.opts.retentionDays,
      recorded: this.recorded,
      lastAt: this.lastAt === null ? null : new Date(this.lastAt).toISOString(),
      last: last?.status ?? null,
      problem: last?.status === 'failed' ? last.message : last?.status === 'skipped' ? last.reason : null,
      cells: this.lastCells,
    };
  }

  /** sampleOnce takes the current bucket's sample now (see SampleOutcome); it never rejects. */
  async sampleOnce(): Promise<SampleOutcome> {
    const outcome = await this.sample();
    this.lastAt = this.now();
    this.last = outcome;
    if (outcome.status === 'recorded') (this.recorded++, (this.lastCells = describeCells(outcome.cells)));
    this.opts.onSample?.(outcome);
    return outcome;
  }

  private async sample(): Promise<SampleOutcome> {
    const { client, historyIndex } = this.opts;
    const now = this.now();
    const start = now - (now % this.intervalMs);
    if (start === this.writtenStart) return { status: 'exists', start };
    try {
      const target = await this.opts.target();
      if ('skip' in target) return { status: 'skipped', reason: target.skip };
      // Made once, and checked before every write: a history deleted meanwhile is made again
      // with its mapping (the write alone would make it with a dynamic one no reader accepts).
      if (!this.ensured || !(await historyIndexReady(client, historyIndex))) {
        await ensureHistoryIndex(client, historyIndex);
        this.ensured = true;
      }
      const c = await readShardCounters(client, target.index);
      const sample: TrafficSnapshot = { source: 'shards', index: target.index, concrete: c.concrete, uuid: c.uuid, start, sampledAt: c.sampledAt, intervalSeconds: this.opts.intervalSeconds, hash: target.hash, ranges: target.ranges, copies: c.copies, failedShards: c.failedShards };
      const written = await recordSample(client, historyIndex, sample);
      this.writtenStart = start;
      const cells = written === 'written' ? await this.recordCells(target, c.concrete, start) : { status: 'exists' as const };
      let pruned = 0;
      if (now - this.lastPruneAt >= PRUNE_EVERY_MS) {
        pruned = await pruneHistory(client, historyIndex, now - this.opts.retentionDays * 86_400_000);
        this.lastPruneAt = now;
      }
      return written === 'written' ? { status: 'recorded', sample, pruned, cells } : { status: 'exists', start };
    } catch (e) {
      // The history index may have been deleted meanwhile: make it again on the next sample.
      this.ensured = false;
      const refused = e instanceof OpenSearchError && e.status === 403;
      return { status: 'failed', message: `${(e as Error).message}${refused && !/needs the role/.test((e as Error).message) ? ` (the traffic recorder: ${roleAdvice('traffic')})` : ''}` };
    }
  }

  /** Reads the plugin's per-cell counts of the interval before `start` and writes them as their own record (CellsOutcome). */
  private async recordCells(target: SampleTarget, concrete: string, start: number): Promise<CellsOutcome> {
    const from = start - this.intervalMs;
    try {
      const read = await readCellCounters(this.opts.client, concrete, from, start);
      if (read.status !== 'read') return { status: read.status };
      const record: CellsRecord = { source: 'cells', index: target.index, start: from, sampledAt: this.now(), intervalSeconds: this.opts.intervalSeconds, hash: target.hash, cells: read.counts };
      const written = await recordSample(this.opts.client, this.opts.historyIndex, record);
      return written === 'written' ? { status: 'recorded', record } : { status: 'exists' };
    } catch (e) {
      return { status: 'failed', message: (e as Error).message };
    }
  }
}
