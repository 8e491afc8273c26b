/**
 * Whether Write mode is offered (the live API's status says writes are
 * enabled) and whether a click on the globe places a restaurant now. Read
 * only by Write mode's own (lazily loaded) parts.
 */
import type { AppState } from '../shell/types';
import type { LiveStatusState } from '../api/status';

/** The availability of Write mode: from the live API's status. */
export type WriteAvailability = { state: 'enabled' } | { state: 'disabled' | 'unknown'; reason: string };

/** WRITES_OFF: why Write mode is not offered by a server that says writes are disabled. */
export const WRITES_OFF = 'Writes are off on this server: start it with GEOSHARD_WRITES=1 (GEOSHARD_WRITES=1 npm start) to place restaurants from the globe.';

/** writeAvailability reads whether the live API takes writes from its latest status. */
export function writeAvailability(live: LiveStatusState): WriteAvailability {
  if (live.phase === 'idle' || live.phase === 'loading') return { state: 'unknown', reason: 'Waiting for the live API’s status…' };
  if (!live.status) return { state: 'disabled', reason: `The live API’s status is not known: ${live.failure?.message ?? 'no answer'}` };
  const w = live.status.writes;
  if (!w) return { state: 'disabled', reason: 'This server does not say whether it takes writes (a server before writes): update it and start it with GEOSHARD_WRITES=1.' };
  return w.enabled ? { state: 'enabled' } : { state: 'disabled', reason: WRITES_OFF };
}

/** writing says whether a click on the globe places a restaurant: Live on, the Live tab open, Write mode on and writes enabled. */
export function writing(s: AppState): boolean {
  return s.writeMode && s.liveOn && s.tab === 'live' && writeAvailability(s.liveStatus).state === 'enabled';
}
