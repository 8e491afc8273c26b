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
import type { OpenSearchClient } from '../../cluster/client.ts';
import { pipelineId } from '../../opensearch/routingPipeline.ts';
import type { ReindexRun } from './reindexRun.ts';
import { fmt, ReindexError, type CopyTask } from './state.ts';
import { LOAD_SETTINGS, RESTORED_SETTINGS } from '../../opensearch/bulk.ts';

const enc = encodeURIComponent;

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

/**
 * copyTaskStatus reads a copy task (null: the cluster knows no such task,
 * e.g. after a restart of its node). A sliced `_reindex` reports nothing in
 * its own status until a slice ends (`slices: [null, …]`): while it runs,
 * the figures are the sum over its slices, each taken from the slice's
 * entry once it ended and from its running child task
 * (`GET _tasks?parent_task_id=`) before.
 */
export async function copyTaskStatus(client: OpenSearchClient, taskId: string): Promise<CopyTaskStatus | null> {
  const res = await client.request<RawTask>('GET', `/_tasks/${enc(taskId)}`, { okStatuses: [404], timeoutMs: 60_000 });
  if (res.status === 404) return null;
  const b = res.body;
  const st = b.task?.status ?? {};
  const r = b.response;
  let parts: RawStatus[] = [r ?? st];
  if (!b.completed && Array.isArray(st.slices)) {
    type Kids = { nodes?: Record<string, { tasks?: Record<string, { status?: RawStatus & { slice_id?: number } }> }> };
    const kids = await client.request<Kids>('GET', '/_tasks', { query: { parent_task_id: taskId, detailed: 'true' }, timeoutMs: 60_000 });
    const running = new Map<number, RawStatus>();
    for (const n of Object.values(kids.body.nodes ?? {})) for (const t of Object.values(n.tasks ?? {})) if (t.status?.slice_id !== undefined) running.set(t.status.slice_id, t.status);
    parts = st.slices.map((done, i) => done ?? running.get(i) ?? {});
  }
  const sum = (k: 'total' | 'created' | 'updated' | 'version_conflicts' | 'requests_per_second') => parts.reduce((a, p) => a + ((p as Record<string, number | undefined>)[k] ?? 0), 0);
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
    requestsPerSecond: b.completed ? -1 : sum('requests_per_second'),
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

/** copyByEngine has the cluster copy SRC into DEST (or follows or restarts its recorded task), then moves the state to verifying. */
export async function copyByEngine(run: ReindexRun): Promise<void> {
  const { client, src, dest, o, say, batch, result } = run;
  const save = () => run.save();
  // The cluster copies: sliced _reindex through DEST's routing pipeline, followed through the tasks API.
  await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: LOAD_SETTINGS } });
  const t0 = performance.now();
  let task = run.state.copyTask;
  if (task) {
    const st = await copyTaskStatus(client, task.id);
    if (!st || (st.completed && st.cancelled)) {
      say(`copy: the cluster's copy task ${task.id} was ${st ? 'cancelled' : 'lost (its node restarted?)'}: starting it again, skipping what DEST holds`);
      task = undefined;
    } else say(`copy: following the cluster's copy task ${task.id} (started ${task.startedAt})`);
  }
  if (!task) {
    task = await startEngineCopy(client, { src, dest, pipeline: pipelineId(dest), batch, requestsPerSecond: o.requestsPerSecond, resumed: !!run.state.copyTask });
    run.state = { ...run.state, copyMode: 'engine', copyTask: task };
    await save();
    say(`copy: the cluster copies "${src}" into "${dest}" with _reindex (task ${task.id}, slices auto, ${o.requestsPerSecond ? `throttled to ${fmt(o.requestsPerSecond)} documents/s` : 'no throttle'}) through DEST's routing pipeline. Follow it with GET _tasks/${task.id}; change its throttle with "geoshard reindex --to ${dest} --rethrottle N"; stop it with --pause (a run after that resumes the copy)`);
  }
  let paused = false;
  let lastLine = 0;
  const final = await followCopyTask(client, task.id, (st) => {
    const t = performance.now();
    if (t - lastLine < 2000 && !st.completed) return;
    lastLine = t;
    const rate = st.written / Math.max(0.001, (t - t0) / 1000);
    say(`copy (cluster) ${fmt(st.written + st.skipped)}/${fmt(st.total)} documents (${st.total ? Math.min(100, Math.round((100 * (st.written + st.skipped)) / st.total)) : 100}%), ${fmt(rate)} documents/s${st.skipped ? `, ${fmt(st.skipped)} already in DEST` : ''}`);
  }, o.pause ? 250 : 2000);
  if (final.cancelled) throw new ReindexError(`the cluster's copy task ${task.id} was cancelled (--pause, or by hand): run the command again to resume the copy`);
  if (final.failures.length > 0) throw new ReindexError(`the cluster's copy into "${dest}" failed for ${final.failures.length} documents or shards (task ${task.id}): ${final.failures.slice(0, 5).join('; ')}. A document the routing pipeline refuses has no location it reads (fix it in "${src}"), then run the command again`);
  if (!paused && o.pause) (paused = true), await o.pause('copying');
  result.copied = final.written;
  result.copySeconds = (performance.now() - t0) / 1000;
  result.docsPerSecond = result.copied / Math.max(0.001, result.copySeconds);
  await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: RESTORED_SETTINGS } });
  run.state = { ...run.state, phase: 'verifying' };
  await save();
}
