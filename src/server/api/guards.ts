/**
 * The live API's guards: every endpoint that touches the index (a search, a measurement, a
 * document lookup, a write) passes Guards.admit, and nothing else checks. The index must have
 * been made for the server's boundary file (the drift guard, driftGuard.ts: both hashes in
 * `_meta`), its routing ingest pipeline must route plain writers as `_meta` says (for the
 * endpoints that read: ingestPipeline.ts PipelineGuard), and the engine must send every shard
 * name to the shard the file says (src/ops/routing/routingCheck.ts checkRouting, asked once per
 * index hash). A migration in progress changes the router the request uses (the package's
 * RouterCache). A refusal is a 409 (drift, or a pipeline or routing mismatch) or 503 (no index)
 * naming what disagrees, a 500 when the migration state in `_meta` cannot be used, or the
 * connection's own error answer (http.ts errorResult) when the cluster cannot be asked.
 */
import type { Router } from '../../core/index.ts';
import type { MigrationState } from '../../core/migrationState.ts';
import { driftState, type DriftState } from '../driftGuard.ts';
import { checkRouting, type RoutingCheck } from '../../ops/routing/routingCheck.ts';
import { RouterCache, routingKeyOf } from '../../opensearch/meta.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { PipelineGuard, type InstalledPipeline, type PipelineStatus } from '../../ops/routing/pipelineInstall.ts';
import { errorResult, type ApiResult } from './http.ts';
import type { Loaded } from './load.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { readSearchPipeline, searchPipelineStatusOf, type InstalledSearchPipeline } from '../../ops/routing/searchPipelineInstall.ts';

/** A request the guards let through: the drift state it was checked at and the router (and migration state) to use. */
export interface Admitted {
  drift: DriftState;
  router: Router;
  state: MigrationState | null;
}

/** Guards holds what the checks remember between requests: the routing checks, the pipeline reads, the migration's router. */
export class Guards {
  /** The routing check per index hash: asked once (at start, or on the first search), not on every search. */
  private readonly routingChecks = new Map<string, RoutingCheck>();
  /** The router of the index's migration state, rebuilt when its epoch changes. */
  readonly migrations = new RouterCache();
  /** The routing pipeline installed on the index, compared with its _meta on every search. */
  private readonly pipelines: PipelineGuard;

  /** Per index: its search pipeline as last read (a promise, shared by requests meanwhile), and when. */
  private readonly searchPipelines = new Map<string, { at: number; read: Promise<InstalledSearchPipeline | undefined | null> }>();

  /** `pipelineTtlMs`: how long a pipeline read is reused (ms); `pipelineSettleMs`: how long a mismatch is read again before it is refused (ms). */
  constructor(private readonly client: OpenSearchClient, private readonly pipelineTtlMs: number, pipelineSettleMs: number) {
    this.pipelines = new PipelineGuard(client, pipelineTtlMs, pipelineSettleMs);
  }

  /**
   * clusterRoutes says whether the index's default search pipeline is geoshard's and narrows as
   * `meta` says (the plugin's geo_routing_search following `_meta`, or pinned to its hash): then a
   * search sent with no routing is routed by the cluster. Read at most once per `pipelineTtlMs`;
   * false when it cannot be read (the server routes, as without the plugin).
   */
  async clusterRoutes(index: string, meta: { hash: string; migration?: unknown } | null | undefined): Promise<boolean> {
    const now = Date.now();
    let e = this.searchPipelines.get(index);
    if (!e || now - e.at > this.pipelineTtlMs) {
      e = { at: now, read: readSearchPipeline(this.client, index).catch(() => null) };
      this.searchPipelines.set(index, e);
    }
    const installed = await e.read;
    return installed !== null && searchPipelineStatusOf(installed, meta, index)?.matches === true;
  }

  /**
   * routingCheck asks the engine where every shard name goes (once per index
   * hash; `fresh` asks again). Rejects with OpenSearchError when it cannot.
   */
  async routingCheck(router: Router, indexHash: string | null, fresh = false): Promise<RoutingCheck> {
    const key = indexHash ?? '';
    const cached = this.routingChecks.get(key);
    if (cached && !fresh) return cached;
    const check = await checkRouting(this.client, router);
    this.routingChecks.set(key, check);
    return check;
  }

  /**
   * admit runs a request's checks in order: drift, the routing pipeline (when `pipeline`: the
   * endpoints that read), the migration's router, the engine's routing. It returns the answer
   * that refuses the request, or what the request runs with. A pipeline or routing check that
   * cannot be asked lets the request run (the hashes match; the next request asks again).
   * `refusedToo` ends a routing refusal's message (a write says writes are refused too).
   */
  async admit(l: Extract<Loaded, { router: Router }>, head: Record<string, unknown>, opts: { pipeline: boolean; refusedToo?: string }): Promise<Admitted | { refused: ApiResult }> {
    const file = l.router.file;
    // The drift check comes first: nothing runs against an index written with another
    // boundary file (its request also opens the connection the searches reuse).
    let drift: DriftState;
    // The pipeline is read beside the drift check (one round trip for both, when not remembered).
    const pipelineRead: Promise<InstalledPipeline | undefined | null> = opts.pipeline ? this.pipelines.read(file.index).catch(() => null) : Promise.resolve(null);
    try {
      drift = await l.guard.check();
    } catch (e) {
      return { refused: errorResult(head, e, this.client.url) };
    }
    if (drift.status !== 'ok') return { refused: driftResult(head, drift) };
    // The routing pipeline must route plain writers as _meta says. When it cannot be read the
    // request runs (it is the write side that would be wrong) and the next one reads it again.
    let pipeline: PipelineStatus | null = null;
    try {
      const installed = await pipelineRead;
      if (installed !== null) pipeline = await this.pipelines.check(file.index, drift.meta, () => fetchIndexMeta(this.client, file.index), file, installed);
    } catch {
      pipeline = null;
    }
    if (pipeline && !pipeline.matches) return { refused: driftRefusal(head, drift, 'pipeline-mismatch', { pipeline }, pipeline.message) };
    // A migration in progress: route with its state (one read owner per range, the other copy excluded).
    let router: Router;
    let state: MigrationState | null;
    try {
      ({ router, state } = this.migrations.routerFor(drift.meta!, l.router));
    } catch (e) {
      return { refused: { httpStatus: 500, body: { status: 'error', ...head, error: { message: `the index's migration state cannot be used: ${(e as Error).message}` } } } };
    }
    // The routing check (asked once per index hash). When it cannot be asked, the request still
    // runs (the hashes match, so only an engine-level routing change could misroute) and the
    // check is tried again on the next request.
    const check = await this.routingCheck(router, drift.indexHash).catch(() => null);
    if (check && check.status !== 'ok') {
      return {
        refused: driftRefusal(head, drift, 'routing-mismatch', { routing: { fingerprint: check.fingerprint, fileRoutingNumShards: check.fileRoutingNumShards, misroutes: check.misroutes } }, opts.refusedToo ? `${check.message} ${opts.refusedToo}` : check.message),
      };
    }
    return { drift, router, state };
  }

  /**
   * epochMoved reads `_meta` again after a search routed at `key` (routingKeyOf) has run. A search is
   * valid for the epoch it was routed with only if that epoch was still in force when it finished:
   * the migration publishes a new epoch before it copies or deletes, so a search that sees the
   * same epoch after it ran saw no copy or delete of that epoch's successor. Null when the epoch
   * is the same (or the hashes no longer match: the next search's drift check says so); else the
   * new epoch's key and router, to search again with.
   */
  async epochMoved(l: Extract<Loaded, { router: Router }>, key: string): Promise<{ key: string; router: Router; state: MigrationState | null } | null> {
    const file = l.router.file;
    const after = await fetchIndexMeta(this.client, file.index);
    if (routingKeyOf(after) === key || driftState(file, after).status !== 'ok') return null;
    const { router, state, key: routed } = this.migrations.routerFor(after!, l.router);
    return { key: routed, router, state };
  }
}

/** driftRefusal is the 409 of a request whose hashes match but whose routing does not: `status` says what disagrees, `extra` the details. */
export function driftRefusal(head: Record<string, unknown>, d: DriftState, status: 'pipeline-mismatch' | 'routing-mismatch', extra: Record<string, unknown>, message: string): ApiResult {
  const drift = { status, indexHash: d.indexHash, fileHash: d.fileHash, indexVersion: d.indexVersion, fileVersion: d.fileVersion };
  return { httpStatus: 409, body: { status: 'drift', ...head, drift, ...extra, error: { message } } };
}

/** driftResult is the answer of a failed drift check: 503 when the index does not exist, else 409 naming both hashes. */
export function driftResult(head: Record<string, unknown>, d: DriftState): ApiResult {
  const drift = { status: d.status, indexHash: d.indexHash, fileHash: d.fileHash, indexVersion: d.indexVersion, fileVersion: d.fileVersion };
  if (d.status === 'missing-index') return { httpStatus: 503, body: { status: 'unavailable', ...head, drift, error: { message: d.message } } };
  return { httpStatus: 409, body: { status: 'drift', ...head, drift, error: { message: d.message } } };
}
