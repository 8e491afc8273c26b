/**
 * The reindex copy done by the cluster itself: OpenSearch's `_reindex`,
 * sliced (`slices=auto`: one slice per source shard, run in parallel on the
 * nodes that hold them), throttled (`requests_per_second`, changed on a
 * running copy with `_rethrottle`), started with `wait_for_completion=false`
 * and followed through the tasks API (`GET _tasks/<id>`), so the client only
 * polls: its memory and CPU do not grow with the index.
 *
 * Every document goes through DEST's routing pipeline (`dest.pipeline`), which
 * routes it by its location as any writer's document is routed; the source's
 * routing is discarded (`dest.routing: discard`: a hash-sharded source's
 * routing, e.g. a join child's parent id, is not a shard name of DEST).
 *
 * Resume: the task id is recorded in DEST's `_meta.reindex` (copyTask). A run
 * that finds it follows the task while it runs, takes its result when it has
 * finished (`_tasks` keeps the result of a task started without waiting), and
 * starts the copy again when it was cancelled or is gone (a node restart):
 * then with `op_type: create` and `conflicts: proceed`, so what was copied is
 * skipped (a version conflict), not written again. The verify and the
 * catch-up that follow find whatever a writer changed meanwhile.
 *
 * Node only.
 */
import type { OpenSearchClient } from './opensearch.ts';

const enc = encodeURIComponent;

/** The copy task recorded in DEST's `_meta.reindex`. */
export interface CopyTask {
  /** The task id, "<node id>:<number>". */
  id: string;
  startedAt: string;
  /** Whether this task was started with op_type create (a restart after a cancelled or lost task). */
  resumed: boolean;
}

/** What `GET _tasks/<id>` says of a `_reindex` task (the parts geoshard reads). */
export interface CopyTaskStatus {
  completed: boolean;
  cancelled: boolean;
  /** Documents the copy will read, and those written so far (created + updated), skipped as already there (version conflicts), and the current throttle (-1 or Infinity: none). */
  total: number;
  written: number;
  skipped: number;
  requestsPerSecond: number;
  /** Failures (documents the pipeline refused, shards that failed), as messages; an error that ended the task. */
  failures: string[];
}

/** The error of a copy the cluster refused or that failed, with a message for the operator. */
export class EngineCopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineCopyError';
  }
}

/**
 * startEngineCopy starts `_reindex` from `src` into `dest` through `pipeline`
 * without waiting, and returns the task. `requestsPerSecond` (> 0) throttles
 * it (documents per second across its slices; undefined: no throttle);
 * `batch` is the scroll's page size (documents per bulk request of a slice).
 * `resumed`: skip documents DEST already holds (op_type create, conflicts proceed).
 */
export async function startEngineCopy(client: OpenSearchClient, o: { src: string; dest: string; pipeline: string; batch: number; requestsPerSecond?: number; resumed: boolean }): Promise<CopyTask> {
  const body = {
    source: { index: o.src, size: o.batch },
    dest: { index: o.dest, pipeline: o.pipeline, routing: 'discard', ...(o.resumed ? { op_type: 'create' } : {}) },
    ...(o.resumed ? { conflicts: 'proceed' } : {}),
  };
  const res = await client.request<{ task?: string }>('POST', '/_reindex', {
    query: { wait_for_completion: 'false', slices: 'auto', ...(o.requestsPerSecond ? { requests_per_second: String(o.requestsPerSecond) } : {}) },
    body,
    timeoutMs: 120_000,
  });
  if (!res.body.task) throw new EngineCopyError(`_reindex from "${o.src}" into "${o.dest}" started no task: ${JSON.stringify(res.body).slice(0, 300)}`);
  return { id: res.body.task, startedAt: new Date().toISOString(), resumed: o.resumed };
}

interface RawStatus {
  total?: number;
  created?: number;
  updated?: number;
  version_conflicts?: number;
  requests_per_second?: number;
  slices?: ({ total?: number; created?: number; updated?: number; version_conflicts?: number } | null)[];
}

interface RawTask {
  completed?: boolean;
  task?: { status?: RawStatus; cancelled?: boolean; cancellable?: boolean };
  response?: { failures?: { index?: string; id?: string; cause?: { type?: string; reason?: string }; reason?: { type?: string; reason?: string } }[]; canceled?: string; total?: number; created?: number; updated?: number; version_conflicts?: number };
  error?: { type?: string; reason?: string };
}

/** copyTaskStatus reads a copy task (null: the cluster knows no such task, e.g. after a restart of its node). */
export async function copyTaskStatus(client: OpenSearchClient, taskId: string): Promise<CopyTaskStatus | null> {
  const res = await client.request<RawTask>('GET', `/_tasks/${enc(taskId)}`, { okStatuses: [404], timeoutMs: 60_000 });
  if (res.status === 404) return null;
  const b = res.body;
  const st = b.task?.status ?? {};
  const r = b.response;
  const sum = (k: 'total' | 'created' | 'updated' | 'version_conflicts') => r?.[k] ?? st[k] ?? 0;
  const failures = [
    ...(r?.failures ?? []).map((f) => `${f.id ? `document ${f.id}: ` : ''}${f.cause?.type ?? f.reason?.type ?? ''} ${f.cause?.reason ?? f.reason?.reason ?? ''}`.trim()),
    ...(b.error ? [`${b.error.type ?? 'error'}: ${b.error.reason ?? ''}`] : []),
  ];
  return {
    completed: !!b.completed,
    cancelled: !!b.task?.cancelled || !!r?.canceled,
    total: sum('total'),
    written: sum('created') + sum('updated'),
    skipped: sum('version_conflicts'),
    requestsPerSecond: st.requests_per_second ?? -1,
    failures,
  };
}

/**
 * followCopyTask polls a copy task every `everyMs` until it completes,
 * calling `progress` with each status; returns the final status. Throws
 * EngineCopyError when the task is gone (null status).
 */
export async function followCopyTask(client: OpenSearchClient, taskId: string, progress: (s: CopyTaskStatus) => void, everyMs = 2000): Promise<CopyTaskStatus> {
  for (;;) {
    const s = await copyTaskStatus(client, taskId);
    if (!s) throw new EngineCopyError(`the copy task ${taskId} is gone from the cluster (its node restarted?): run the command again to start the copy again (what was copied is skipped)`);
    progress(s);
    if (s.completed) return s;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** rethrottleCopy changes a running copy's throttle (documents per second across its slices; -1: none). */
export async function rethrottleCopy(client: OpenSearchClient, taskId: string, requestsPerSecond: number): Promise<void> {
  await client.request('POST', `/_reindex/${enc(taskId)}/_rethrottle`, { query: { requests_per_second: String(requestsPerSecond) }, timeoutMs: 60_000 });
}

/** cancelCopy cancels a running copy task (its slices too); a finished or unknown task is no error. */
export async function cancelCopy(client: OpenSearchClient, taskId: string): Promise<void> {
  await client.request('POST', `/_tasks/${enc(taskId)}/_cancel`, { okStatuses: [404], timeoutMs: 60_000 });
}
