/**
 * A poll of the live API: ask at once, then `everyMs` after each answer (one request at a time,
 * so a slow cluster is never asked faster than it answers). `now()` asks again at once (the
 * request in flight is aborted: its answer is stale); `stop()` aborts it and asks no more.
 * A request that rejects (not a LiveFailure, which `ask` returns as an answer) is logged with
 * `label` and asked again after `everyMs`. The Nodes view and the Traffic view poll with it.
 */
export interface Poller {
  now: () => void;
  stop: () => void;
}

const isAbort = (e: unknown) => (e as Error)?.name === 'AbortError';

/** startPoller asks at once; `onAnswer` gets each answer that is not stale. */
export function startPoller<T>(ask: (signal: AbortSignal) => Promise<T>, onAnswer: (answer: T) => void, opts: { everyMs: number; label: string }): Poller {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let ctl: AbortController | null = null;

  const go = () => {
    timer = null;
    const c = new AbortController();
    ctl = c;
    ask(c.signal).then(
      (answer) => {
        if (stopped || ctl !== c) return;
        ctl = null;
        onAnswer(answer);
        timer = setTimeout(go, opts.everyMs);
      },
      (e) => {
        if (!isAbort(e)) console.warn(`geoshard: ${opts.label}: ${(e as Error).message}`);
        if (!stopped && ctl === c) {
          ctl = null;
          timer = setTimeout(go, opts.everyMs);
        }
      },
    );
  };

  go();
  return {
    now: () => {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      ctl?.abort();
      go();
    },
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      ctl?.abort();
      timer = ctl = null;
    },
  };
}
