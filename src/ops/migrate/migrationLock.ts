/**
 * The lock that keeps two executors of one index apart (`geoshard migrate`, `geoshard reindex`):
 * one document per locked index in LOCK_INDEX, created with op_type create, kept alive by a
 * heartbeat, and taken over (compare-and-set on its sequence number) only when its holder is
 * stale (no heartbeat for staleMs, or a process on this host that is gone). A document, because
 * `_meta` has no compare-and-set.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { MigrationError } from '../../opensearch/meta.ts';

/** The index that holds one lock document per migrated index (a document, because `_meta` has no compare-and-set). */
export const LOCK_INDEX = 'geoshard-migration-locks';

/** Who holds a migration lock. */
export interface LockHolder {
  owner: string;
  host: string;
  pid: number;
  startedAt: string;
  /** Milliseconds since the epoch of the holder's last heartbeat. */
  heartbeatAt: number;
}

/** A held lock: heartbeats until released; `lost` turns true when another process took it over. */
export interface Lock {
  holder: LockHolder;
  /** A sentence when the lock was taken over from a dead or silent holder, else null. */
  tookOver: string | null;
  lost: () => boolean;
  release: () => Promise<void>;
}

/**
 * isStale says whether a lock holder is gone: on this host, its process no
 * longer exists (kill -9 leaves no heartbeat to wait for); elsewhere, its
 * heartbeat is older than staleMs.
 */
export function isStale(h: LockHolder, nowMs: number, staleMs: number, host = hostname(), alive = pidAlive): boolean {
  if (h.host === host) return !alive(h.pid);
  return nowMs - h.heartbeatAt > staleMs;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * acquireLock takes the migration lock of `index`: creates the lock document
 * (create-only: of two processes, one wins), or, when a holder exists and is
 * stale (isStale), replaces it with a compare-and-set on its sequence number
 * (of two processes taking over, one wins). Refuses with MigrationError
 * naming the holder otherwise. While held, the heartbeat is renewed every
 * staleMs / 3 with compare-and-set; a failed renewal marks the lock lost.
 * `lockIndex` holds the lock documents (default LOCK_INDEX); `what` names the
 * work in messages (`geoshard reindex` takes the lock of its source: "reindex").
 */
export async function acquireLock(client: OpenSearchClient, index: string, staleMs: number, lockIndex = LOCK_INDEX, what = 'migration'): Promise<Lock> {
  const LOCK_INDEX = lockIndex;
  // Creating the lock index is a change of the cluster state: admin deadlines, so a busy cluster slows the migration instead of failing it.
  await client.admin('PUT', `/${LOCK_INDEX}`, {
    body: { settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1' } }, mappings: { dynamic: false } },
    okStatuses: [400],
  });
  const now = Date.now();
  const holder: LockHolder = { owner: randomUUID(), host: hostname(), pid: process.pid, startedAt: new Date(now).toISOString(), heartbeatAt: now };
  const doc = `/${LOCK_INDEX}/_doc/${encodeURIComponent(index)}`;
  let seq: { if_seq_no: number; if_primary_term: number };
  let tookOver: string | null = null;
  type Written = { _seq_no: number; _primary_term: number };
  const created = await client.request<Written>('PUT', `/${LOCK_INDEX}/_create/${encodeURIComponent(index)}`, { query: { refresh: 'true' }, body: holder, okStatuses: [409] });
  if (created.status === 409) {
    const cur = await client.request<Written & { found: boolean; _source: LockHolder }>('GET', doc, { okStatuses: [404] });
    if (!cur.body.found) throw new MigrationError(`the ${what} lock of "${index}" was released while this process tried to take it: run the command again`);
    const h = cur.body._source;
    if (!isStale(h, now, staleMs)) {
      throw new MigrationError(
        `a ${what} of "${index}" is already running: process ${h.pid} on ${h.host}, started ${h.startedAt}, last heartbeat ${Math.round((now - h.heartbeatAt) / 1000)} s ago. ` +
          `Two at once are refused. If that process is gone, its lock is taken over once it is found dead (same host) or its heartbeat is older than ${staleMs / 1000} s.`,
      );
    }
    const took = await client.request<Written>('PUT', doc, { query: { if_seq_no: cur.body._seq_no, if_primary_term: cur.body._primary_term, refresh: 'true' }, body: holder, okStatuses: [409] });
    if (took.status === 409) throw new MigrationError(`another process took over the stale migration lock of "${index}" first: a ${what} is running`);
    tookOver = `took over the lock of process ${h.pid} on ${h.host} (${h.host === holder.host ? 'no longer running' : `no heartbeat for ${Math.round((now - h.heartbeatAt) / 1000)} s`})`;
    seq = { if_seq_no: took.body._seq_no, if_primary_term: took.body._primary_term };
  } else {
    seq = { if_seq_no: created.body._seq_no, if_primary_term: created.body._primary_term };
  }
  let lost = false;
  let released = false;
  const beat = async () => {
    if (lost || released) return;
    try {
      const r = await client.request<Written>('PUT', doc, { query: { ...seq }, body: { ...holder, heartbeatAt: Date.now() }, okStatuses: [409, 404] });
      if (r.status !== 200 && r.status !== 201) lost = true;
      else seq = { if_seq_no: r.body._seq_no, if_primary_term: r.body._primary_term };
    } catch {
      // A heartbeat that cannot reach the cluster is retried; the steps themselves fail loudly.
    }
  };
  let chain = Promise.resolve();
  const timer = setInterval(() => (chain = chain.then(beat)), Math.max(250, staleMs / 3));
  timer.unref();
  return {
    holder,
    tookOver,
    lost: () => lost,
    release: async () => {
      clearInterval(timer);
      await chain;
      released = true;
      if (!lost) await client.request('DELETE', doc, { query: { ...seq, refresh: 'true' }, okStatuses: [404, 409] });
    },
  };
}
