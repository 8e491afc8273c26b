/** Progress lines of a long reindex step. */
import { fmt } from './state.ts';

/**
 * progressMeter counts documents of a long step and prints, at most every 2 s
 * (and when `line(true)`), "<label> done/total documents (%), documents/s, ETA s".
 */
export function progressMeter(label: string, total: number, say: (l: string) => void): { add(n: number): void; line(force?: boolean): void; done(): number; seconds(): number } {
  const t0 = performance.now();
  let done = 0;
  let last = 0;
  const line = (force = false) => {
    const t = performance.now();
    if (!force && t - last < 2000) return;
    last = t;
    const rate = done / Math.max(0.001, (t - t0) / 1000);
    const eta = rate > 0 && total > done ? `, ETA ${Math.ceil((total - done) / rate)} s` : '';
    say(`${label} ${fmt(done)}/${fmt(total)} documents (${total ? Math.min(100, Math.round((100 * done) / total)) : 100}%), ${fmt(rate)} documents/s${eta}`);
  };
  return { add: (n) => ((done += n), line()), line, done: () => done, seconds: () => (performance.now() - t0) / 1000 };
}

