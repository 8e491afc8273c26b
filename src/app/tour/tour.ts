/**
 * The tour's moves: going to a step applies its link (shell/linkCodec.ts) the way
 * back/forward does, so a step shown by the tour and the same step opened by
 * link are one state.
 */
import type { AppState } from '../shell/store';
import { TOUR_STEPS, type TourStep } from './steps';

/** stepUrl returns the query string (with `?`) that opens step n (1-based), keeping the boundary file of `current`. */
export function stepUrl(n: number, current = ''): string {
  const step = TOUR_STEPS[n - 1];
  if (!step) throw new RangeError(`tour step ${n} does not exist: expected 1 to ${TOUR_STEPS.length}`);
  const q = new URLSearchParams(step.query);
  q.set('tour', String(n));
  const boundaries = new URLSearchParams(current).get('boundaries');
  if (boundaries !== null) q.set('boundaries', boundaries);
  return '?' + q.toString().replace(/%2C/g, ',');
}

/** goToStep shows step n (1-based) or, for null, leaves the tour where it is (the view stays). */
export function goToStep(n: number | null): void {
  const query = n === null ? tourOff(location.search) : stepUrl(n, location.search);
  history.pushState(null, '', query + location.hash);
  // Applied as back/forward applies a link: search/search.ts and shell/shellState.ts listen.
  dispatchEvent(new PopStateEvent('popstate', { state: null }));
}

/** tourOff returns the query without the tour parameter. */
function tourOff(query: string): string {
  const q = new URLSearchParams(query);
  q.delete('tour');
  const s = q.toString().replace(/%2C/g, ',');
  return s ? '?' + s : location.pathname;
}

/** stepText fills a step's {k}, {n} and {routing} from the current search (dashes until its covering is in). */
export function stepText(step: TourStep, s: Pick<AppState, 'covering' | 'data'>): string {
  const route = s.covering?.route;
  const n = s.data.status === 'ready' ? String(s.data.file.numberOfShards) : '—';
  return step.text
    .replaceAll('{k}', route ? String(route.shards.length) : '—')
    .replaceAll('{n}', n)
    .replaceAll('{routing}', route ? route.routing : '—');
}
