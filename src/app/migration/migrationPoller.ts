/**
 * Polls /api/status while the Migration view is open (every `everyMs`, one
 * request at a time, each with a deadline) and writes the reading to the
 * store. A migration runs in another process (`geoshard migrate`); the
 * index's `_meta` is the truth both read.
 */
import { requestJson } from '../api/request';
import { readMigration } from '../api/migration';
import { IDLE_WATCH, type MigrationWatch } from './migrationSlice';
import type { AppStore } from '../shell/types';

/** Options of startMigrationPoller. */
export interface PollerOptions {
  write: (w: MigrationWatch) => void;
  /** Milliseconds between the end of one answer and the next request (default 1000). */
  everyMs?: number;
  url?: string;
  fetchImpl?: typeof fetch;
}

/** startMigrationPoller starts polling and returns the function that stops it. */
export function startMigrationPoller(o: PollerOptions): () => void {
  const every = o.everyMs ?? 1000;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const ctl = new AbortController();
  o.write({ phase: 'loading', reading: null, at: 0 });
  const tick = async () => {
    let w: MigrationWatch;
    try {
      const { httpStatus, body } = await requestJson(o.url ?? '/api/status', ctl.signal, o.fetchImpl ?? fetch);
      w = { phase: 'ready', reading: readMigration(httpStatus, body), at: Date.now() };
    } catch (e) {
      w = { phase: 'ready', reading: { kind: 'unknown', message: (e as { message?: string })?.message ?? String(e) }, at: Date.now() };
    }
    if (stopped) return;
    o.write(w);
    timer = setTimeout(tick, every);
  };
  void tick();
  return () => {
    stopped = true;
    ctl.abort();
    if (timer) clearTimeout(timer);
  };
}

/**
 * startMigrationWatch is the Migration tab's driver (src/app/features.ts starts it while the tab
 * is open): polls into the store's migrationWatch and, when stopped, puts it back to idle.
 */
export function startMigrationWatch(store: AppStore): () => void {
  const stop = startMigrationPoller({ write: (w) => store.getState().setMigrationWatch(w) });
  return () => {
    stop();
    store.getState().setMigrationWatch(IDLE_WATCH);
  };
}
