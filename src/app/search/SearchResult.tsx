/**
 * SearchResult: what the current search asks: cells in the covering, shards
 * asked "k / N", the routing string exactly as sent, cells per shard, and the
 * shard bar with the asked segments lit. Rendered once per boundary file;
 * every covering (one per animation frame while the radius is dragged) is
 * written straight to the DOM from a store subscription.
 *
 * Test hooks: cell-count (an integer; "…" while the first covering of a search is computed), shard-count ("k / N", "… / N" likewise), routing (the
 * names, comma-separated), shard-bar (children with data-shard, data-asked),
 * and data-state on the section: "none", "pending", "ready" or "all".
 */
import { shallow } from 'zustand/shallow';
import { useLayoutEffect, useRef } from 'react';
import { useAppStore, useApp, type AppState } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { searchAsked } from '../shell/searchAsked';
import { formatShardCount } from '../../core/searches.ts';
import { toHex } from '../shell/palette';
import { formatInt } from '../shell/format';
import { ShardBar } from '../shell/ShardBar';

/** The asked indices, for the shard bar (a stable function, so the bar subscribes once). */
const askedIndices = (s: AppState) => searchAsked(s)?.indices ?? null;

/**
 * writeRouting shows a routing string with a line-break opportunity (<wbr>) after each comma, so
 * a long list (no location: all shards) wraps between names, never inside one; the element's
 * text stays the string exactly as sent.
 */
function writeRouting(el: HTMLElement, routing: string): void {
  if (el.textContent === routing) return;
  const parts = routing.split(',');
  el.replaceChildren(...parts.flatMap((name, i) => (i < parts.length - 1 ? [`${name},`, document.createElement('wbr')] : [name])));
}

/** The result's state: no search, a covering on its way, a covering shown, or no location (all shards). */
function stateOf(s: AppState): 'none' | 'pending' | 'ready' | 'all' {
  if (s.noLocation) return 'all';
  if (!s.searchCentre) return 'none';
  const c = s.covering;
  const km = s.searchRadius.km;
  return c && c.lat === s.searchCentre.lat && c.lng === s.searchCentre.lng && c.radiusKm === km ? 'ready' : 'pending';
}

export function SearchResult() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const root = useRef<HTMLElement>(null);
  // Before the browser paints: a link's answer is in the first frame that shows the section.
  useLayoutEffect(() => {
    if (!data) return;
    const el = root.current!;
    const q = (id: string) => el.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
    const cells = q('cell-count');
    const shards = q('shard-count');
    const routing = q('routing');
    const note = q('result-note');
    const perShard = q('cells-per-shard');
    const N = data.router.numberOfShards;
    const update = (s: AppState) => {
      const state = stateOf(s);
      el.dataset.state = state;
      const asked = searchAsked(s);
      const route = !s.noLocation && s.searchCentre ? s.covering?.route : null;
      // A figure not computed yet reads as pending (…), never as 0: until the first covering of
      // a search arrives there is no count to show.
      const pending = state === 'pending' && !route;
      cells.textContent = route ? String(route.cellShards.length) : pending ? '…' : '0';
      shards.textContent = pending && !asked ? `… / ${N}` : formatShardCount(asked ? asked.indices.length : 0, N);
      writeRouting(routing, asked ? asked.routing : '—');
      const counts = new Map(route?.shards.map((x) => [x.index, x.cells]) ?? []);
      for (let i = 0; i < perShard.children.length; i++) {
        const row = perShard.children[i] as HTMLElement;
        const n = counts.get(i);
        row.hidden = n === undefined;
        if (n !== undefined) (row.lastElementChild as HTMLElement).textContent = formatInt(n);
      }
      note.textContent =
        state === 'all'
          ? `No location: a search without a circle cannot be routed, so it asks all ${N} shards.`
          : state === 'none'
            ? 'Pick a centre: a preset, a city, or click the globe.'
            : route
              ? `${formatInt(route.cellShards.length)} level-10 cells cover the circle; ${route.shards.length === 1 ? 'all are on one shard' : `they fall on ${route.shards.length} of the ${N} shards`}.`
              : 'Covering the circle…';
    };
    update(appStore.getState());
    return appStore.subscribe((s) => [stateOf(s), s.covering, s.noLocation, s.searchCentre], () => update(appStore.getState()), { equalityFn: shallow });
  }, [data]);
  if (!data) return null;
  const exportAs = (kind: 'geojson' | 'csv') => {
    const s = appStore.getState();
    const covering = s.covering;
    if (!covering || !s.searchCentre || s.noLocation) return;
    // The export's text (core/exports.ts) loads on the first click, not with the first screen.
    void import('./export').then(({ download, coveringExport }) => download(coveringExport(data.router, covering, s.searchRadius, kind)));
  };
  return (
    <section className="search-result" ref={root} data-state="none" aria-live="polite">
      <h3>Result</h3>
      <div className="result-figures">
        <div>
          <span className="label">cells</span>
          <b data-testid="cell-count">0</b>
        </div>
        <div>
          <span className="label">shards asked</span>
          <b data-testid="shard-count">{formatShardCount(0, data.router.numberOfShards)}</b>
        </div>
      </div>
      <div className="routing-line" title="The routing parameter of the search request: shard names in key order">
        <span className="label">routing</span>
        <code>
          routing=<span data-testid="routing">—</span>
        </code>
      </div>
      <ShardBar testId="shard-bar" segmentTestIdPrefix="asked-" asked={askedIndices} />
      <p className="dim small result-note" data-testid="result-note" />
      <table className="shard-table per-shard">
        <tbody data-testid="cells-per-shard">
          {data.router.shards.map((s, i) => (
            <tr key={s.name} hidden onMouseEnter={() => appStore.getState().setHighlight(i)} onMouseLeave={() => appStore.getState().setHighlight(-1)} data-shard={s.name}>
              <td>
                <i className="swatch" style={{ background: toHex(data.colors[i]) }} />
              </td>
              <td className="mono">{s.name}</td>
              <td className="num dim">shard {s.shard}</td>
              <td className="num" />
            </tr>
          ))}
        </tbody>
      </table>
      <div className="export-row">
        <span className="label">export covering</span>
        <button type="button" className="chip" data-testid="export-geojson" onClick={() => exportAs('geojson')}>
          GeoJSON
        </button>
        <button type="button" className="chip" data-testid="export-csv" onClick={() => exportAs('csv')}>
          CSV
        </button>
      </div>
    </section>
  );
}
