/**
 * LivePanel: live mode. A switch runs the radius explorer's current search on
 * a real OpenSearch node through the live API (src/server): routed to the
 * shards the globe lights up, and on all shards, side by side, with the facet
 * sidebar and the top dishes. Failures are loud: node down, index missing,
 * boundary drift and partial results each say so, and the rest of the
 * explorer keeps working. The verdict (badge, identical ✓/✗) leads the results
 * and stays in view; then what a lost node cost the answer (the nodes feature's
 * PlacementNote, in the slot `live-placement`),
 * both sides, the Measure action (LiveMeasure: the search many times per plan,
 * p50/p99, CPU per search, searches per second), each shard's time
 * (LiveTimings), facets, dishes, and last the node's status. With the live API taking writes (GEOSHARD_WRITES=1), the
 * Write section (the write feature's WriteMode, in the slot `live-write`: shell/Slot.tsx) comes
 * first, under the Live switch.
 *
 * The requests are made by live/liveRunner.ts (started from src/app/features.ts) while the Live
 * tab is open and the switch is on. Test hooks: live-toggle (role switch, aria-checked),
 * live-status (LiveStatus.tsx), live-badge (data-status complete | partial |
 * unavailable | drift | invalid | error | pending | none), live-search,
 * live-failure, live-verdict, and those of LiveCompare, LiveMeasure, LiveTimings,
 * PlacementNote, LiveFacets and LiveHits.
 */
import { useEffect, useRef } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { centreLabel } from '../shell/format';
import type { LiveFailure } from '../api/request';
import { LiveStatus } from './LiveStatus';
import { LiveCompare, LiveIdentical } from './LiveCompare';
import { LiveTimings } from './LiveTimings';
import { LiveMeasure } from './LiveMeasure';
import { Slot } from '../shell/Slot';
import { FieldFacets, LiveFacets } from './LiveFacets';
import { LiveHits } from './LiveHits';
import '../ui/live.css';
import '../ui/nodes.css';

/** The badge of a search: what the answer may be trusted for. */
export function badgeOf(result: { status: 'complete' | 'partial' } | null, failure: LiveFailure | null, pending: boolean): string {
  if (result) return result.status;
  if (failure) {
    if (failure.kind === 'drift') return 'drift';
    if (failure.kind === 'invalid') return 'invalid';
    if (failure.kind === 'error' || failure.kind === 'bad-response') return 'error';
    return 'unavailable';
  }
  return pending ? 'pending' : 'none';
}

const BADGE_TEXT: Record<string, string> = {
  complete: 'complete · every shard asked answered',
  partial: 'partial · some shard did not answer: results may miss documents',
  unavailable: 'unavailable · no results',
  drift: 'drift · refused',
  invalid: 'invalid search',
  error: 'error',
  pending: 'searching…',
  none: 'no search',
};

function LiveSwitch() {
  const appStore = useAppStore();
  const on = useApp((s) => s.liveOn);
  return (
    <label className="live-switch">
      <button type="button" role="switch" aria-checked={on} data-testid="live-toggle" onClick={() => appStore.getState().setLiveOn(!on)}>
        <span className="knob" aria-hidden="true" />
      </button>
      <b>Live</b> <span className="dim">{on ? 'on: searching a real OpenSearch node' : 'off'}</span>
    </label>
  );
}

function SearchLine() {
  const centre = useApp((s) => s.searchCentre);
  const radius = useApp((s) => s.searchRadius);
  const noLocation = useApp((s) => s.noLocation);
  const cities = useApp((s) => s.cities);
  const data = useApp(readyData);
  const n = data?.file.numberOfShards;
  let text: string;
  if (noLocation) text = `No location: a search without a circle cannot be routed, so both sides ask all ${n ?? 'N'} shards.`;
  else if (!centre) text = 'No search yet: pick a centre in the Radius search tab (a preset, a city, or a click on the globe), or choose no location.';
  else text = `${centre.label || centreLabel(centre.lat, centre.lng, cities)} · ${Number(radius.value.toFixed(2))} ${radius.unit}`;
  return (
    <p className="live-search-line" data-testid="live-search" data-state={noLocation ? 'all' : centre ? 'circle' : 'none'}>
      {text}
    </p>
  );
}

/**
 * LiveVerdict: the badge and "Identical ✓" line, first in the results and
 * sticky at the top of the panel while it scrolls; when the search changes
 * (a new city), it is scrolled into view, so the comparison always leads.
 */
function LiveVerdict() {
  const search = useApp((s) => s.liveSearch);
  const { result, failure, pending } = search;
  const badge = badgeOf(result, failure, pending);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [search.url]);
  return (
    <div className="live-verdict" ref={ref} data-testid="live-verdict">
      <p className="live-badge-line">
        <span className={`live-badge status-${badge}`} data-testid="live-badge" data-status={badge}>
          {BADGE_TEXT[badge] ?? badge}
        </span>
        {pending && (result || failure) && <span className="dim small"> updating…</span>}
      </p>
      {result && <LiveIdentical result={result} />}
    </div>
  );
}

function LiveResults() {
  const appStore = useAppStore();
  const search = useApp((s) => s.liveSearch);
  const { result, failure, pending } = search;
  return (
    <div className="live-results" data-pending={String(pending)}>
      <LiveVerdict />
      {failure && (
        <div className={`live-failure kind-${failure.kind}`} data-testid="live-failure" data-kind={failure.kind}>
          <p>{failure.message}</p>
          {failure.drift?.indexHash && failure.drift.fileHash && failure.kind === 'drift' && (
            <p className="small mono">
              index _meta hash {failure.drift.indexHash}
              <br />
              boundary file hash {failure.drift.fileHash}
            </p>
          )}
          <button type="button" className="link" onClick={() => appStore.getState().retryLive()}>
            try again
          </button>
        </div>
      )}
      <Slot name="live-placement" />
      {result && (
        <>
          {result.note && <p className="small dim">{result.note}.</p>}
          <LiveCompare result={result} />
          <LiveMeasure />
          <LiveTimings result={result} />
          <LiveFacets facets={result.routed.facets} />
          <FieldFacets groups={result.routed.fieldFacets} />
          <LiveHits side={result.routed} />
        </>
      )}
      {!result && failure && <LiveFacets facets={null} />}
    </div>
  );
}

export function LivePanel() {
  const on = useApp((s) => s.liveOn);
  return (
    <div className="live-panel">
      <p className="panel-intro">
        Live mode runs the current radius search on a real OpenSearch node twice: <b>routed</b> to the shards the globe lights up, and on <b>all shards</b>. The answers must be
        identical while the routed search asks k of N shards.
      </p>
      <LiveSwitch />
      {on && (
        <>
          <Slot name="live-write" />
          <SearchLine />
          <LiveResults />
          <LiveStatus />
        </>
      )}
    </div>
  );
}
