/**
 * GET /api/traffic (wire/traffic.ts) and the server's traffic recorder.
 *
 * - The recorder (src/ops/traffic/sampler.ts) samples the boundary file's index every
 *   GEOSHARD_TRAFFIC_INTERVAL_S seconds (default 60; 0: off) into the cluster's traffic history
 *   while the server runs, when the index was made for the server's file (the drift check);
 *   the entry points start it (main.ts, middleware.ts), so a LiveApi made in a test does not.
 *   Its problems (a missing privilege, the cluster down) are logged once each, not thrown.
 * - The endpoint passes the guards every endpoint passes (guards.ts admit), then reads the
 *   window from the history, whoever recorded it, in the file's ranges, and lists the ranges
 *   that stayed hot (src/core/trafficHotspots.ts) before coarsening the buckets for the wire.
 */
import { coarsen, formatDuration, trafficRangesOf, type TrafficRange } from '../../core/traffic.ts';
import { sustainedHotspots } from '../../core/trafficHotspots.ts';
import type { Router } from '../../core/index.ts';
import { TrafficSampler, type SampleOutcome, type SampleTarget } from '../../ops/traffic/sampler.ts';
import { trafficSettings, type TrafficSettings } from '../../ops/traffic/settings.ts';
import { readTrafficWindow } from '../../ops/traffic/window.ts';
import { parseTrafficQuery, type TrafficAnswer } from '../wire.ts';
import type { ApiContext } from './context.ts';
import { errorResult, invalid, type ApiResult } from './http.ts';
import { boundaryHead, unusable } from './load.ts';

/** Where log lines go (console by default). */
export interface TrafficLog {
  log: (line: string) => void;
  warn: (line: string) => void;
}

/** TrafficEndpoint answers GET /api/traffic and runs the server's recorder. */
export class TrafficEndpoint {
  private sampler: TrafficSampler | null = null;
  private readonly settings: TrafficSettings | { error: string };
  private rangesOf: { hash: string; ranges: TrafficRange[] } | null = null;
  private problem: string | null = null;

  /** `overrides` replace the environment's settings (tests: a short interval, a history index of their own). */
  constructor(
    private readonly api: ApiContext,
    overrides: Partial<TrafficSettings> = {},
  ) {
    try {
      this.settings = { ...trafficSettings(), ...overrides };
    } catch (e) {
      this.settings = { error: (e as Error).message };
    }
  }

  private ranges(router: Router): TrafficRange[] {
    if (this.rangesOf?.hash !== router.file.hash) this.rangesOf = { hash: router.file.hash, ranges: trafficRangesOf(router) };
    return this.rangesOf.ranges;
  }

  /** What the recorder samples now: the file's index, when it was made for the file. */
  private async target(): Promise<SampleTarget | { skip: string }> {
    const l = this.api.routing();
    if ('error' in l) return { skip: l.error };
    const d = await l.guard.check();
    if (d.status !== 'ok') return { skip: d.message || `the index's drift status is ${d.status}` };
    return { index: l.router.file.index, hash: l.router.file.hash, ranges: this.ranges(l.router) };
  }

  /**
   * startRecorder starts sampling (unless the interval is 0, the settings are invalid, or it
   * runs already) and returns the line that says so, which `log.log` also gets; each new
   * problem of a sample goes to `log.warn` once, and its end to `log.log`.
   */
  startRecorder(log: TrafficLog = { log: (l) => console.log(l), warn: (l) => console.warn(l) }): string {
    const s = this.settings;
    let line: string;
    if ('error' in s) line = `[geoshard] traffic: not recording: ${s.error}`;
    else if (s.intervalSeconds === 0) line = '[geoshard] traffic: not recording (GEOSHARD_TRAFFIC_INTERVAL_S=0)';
    else if (this.sampler) return '[geoshard] traffic: recording already';
    else {
      this.sampler = new TrafficSampler({ client: this.api.client, ...s, target: () => this.target(), onSample: (o) => this.noted(o, log) });
      this.sampler.start();
      line = `[geoshard] traffic: recording the per-shard counters every ${formatDuration(s.intervalSeconds)} into "${s.historyIndex}" (kept ${s.retentionDays} days; GEOSHARD_TRAFFIC_INTERVAL_S=0 turns it off)`;
    }
    log.log(line);
    return line;
  }

  private noted(o: SampleOutcome, log: TrafficLog): void {
    const problem = o.status === 'failed' ? o.message : o.status === 'skipped' ? o.reason : null;
    if (problem && problem !== this.problem) log.warn(`[geoshard] traffic: a sample was ${o.status === 'failed' ? 'not written' : 'skipped'}: ${problem}`);
    if (!problem && this.problem) log.log('[geoshard] traffic: recording again');
    this.problem = problem;
  }

  /** stopRecorder stops the recorder and waits for a sample in progress. */
  async stopRecorder(): Promise<void> {
    await this.sampler?.stop();
    this.sampler = null;
  }

  /** answer answers GET /api/traffic for a query string. */
  async answer(q: URLSearchParams): Promise<ApiResult> {
    let query;
    try {
      query = parseTrafficQuery(q);
    } catch (e) {
      return invalid(e);
    }
    const l = this.api.routing();
    if ('error' in l) return unusable(l);
    const head = boundaryHead(l.router.file);
    const s = this.settings;
    if ('error' in s) return { httpStatus: 500, body: { status: 'error', ...head, error: { message: s.error } } };
    try {
      const admitted = await this.api.guards.admit(l, head, { pipeline: false });
      if ('refused' in admitted) return admitted.refused;
      const toMs = query.toMs ?? Date.now();
      const fromMs = toMs - query.windowSeconds * 1000;
      const file = l.router.file;
      const full = (await readTrafficWindow(this.api.client, s.historyIndex, { index: file.index, fromMs, toMs, hash: file.hash, ranges: this.ranges(l.router) }))!;
      const hotspots = sustainedHotspots(l.router, full, { factor: query.factor, sustainSeconds: query.sustainSeconds, metric: query.metric });
      const body: TrafficAnswer = {
        status: 'complete',
        ...head,
        query: { window: formatDuration(query.windowSeconds), to: new Date(toMs).toISOString(), factor: query.factor, sustain: formatDuration(query.sustainSeconds), metric: query.metric, buckets: query.buckets },
        recorder: this.sampler?.status() ?? null,
        historyIndex: s.historyIndex,
        window: coarsen(full, query.buckets),
        hotspots,
      };
      return { httpStatus: 200, body: body as unknown as Record<string, unknown> };
    } catch (e) {
      return errorResult(head, e, this.api.client.url);
    }
  }
}
