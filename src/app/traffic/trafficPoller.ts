/**
 * The Traffic view's poll (src/app/features.ts starts it while the tab is open): asks
 * GET /api/traffic for the view's window and metric at once and every `everyMs` after (default
 * 5 s, so the picture follows live time), and again at once when the window or the metric
 * changes. Hot ranges are those that stayed hot for three of the recorder's samples in a row
 * (the API's default, five minutes, suits the CLI's windows of hours). One request at a time
 * (shell/poller.ts); closing the tab stops it.
 */
import type { AppStore } from '../shell/types';
import { fetchTraffic } from '../api/traffic';
import { startPoller } from '../shell/poller';

export function startTrafficView(store: AppStore, opts: { fetch?: typeof fetch; everyMs?: number } = {}): () => void {
  const fetchImpl = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const get = () => store.getState();
  const poller = startPoller(
    (signal) => {
      const prev = get().trafficState;
      if (prev.phase === 'idle') get().setTrafficState({ ...prev, phase: 'loading' });
      // A range is listed hot once it stayed hot for three of the recorder's samples in a row.
      const every = get().trafficState.answer?.recorder?.intervalSeconds ?? 0;
      return fetchTraffic({ windowSeconds: get().trafficWindowS, metric: get().trafficMetric, ...(every > 0 ? { sustainSeconds: 3 * every } : {}) }, signal, fetchImpl);
    },
    (parsed) => get().setTrafficState(parsed.ok ? { phase: 'ready', answer: parsed.value, failure: null, at: performance.now() } : { phase: 'failed', answer: get().trafficState.answer, failure: parsed.failure, at: performance.now() }),
    { everyMs: opts.everyMs ?? 5000, label: 'traffic' },
  );
  const unsubscribe = store.subscribe(
    (s) => `${s.trafficWindowS} ${s.trafficMetric}`,
    () => poller.now(),
  );
  return () => {
    unsubscribe();
    poller.stop();
  };
}
