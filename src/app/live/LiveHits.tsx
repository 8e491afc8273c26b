/**
 * LiveHits: the top dishes of the routed search, nearest restaurants first:
 * dish, restaurant, place, distance (in the radius's unit), price, calories,
 * diets, allergens, and the shard the dish was written to (its routing value).
 *
 * An index of another config (geoshard explore on a team's index) lists its documents instead:
 * name (or _id), distance, the config's facet fields, and the routing value.
 *
 * Test hooks: live-hits (data-count), each row live-hit (data-id, data-routing).
 */
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { KM_PER_MILE } from '../../core/index';
import { toHex } from '../shell/palette';
import { formatInt } from '../shell/format';
import { liveNoun } from '../api/status';
import type { LiveHit, LiveSide } from '../api/search';

/** The value of a document's field for people: strings and numbers as they are, lists joined, other shapes as JSON. */
const fieldText = (v: unknown): string => (Array.isArray(v) ? v.map(fieldText).join(', ') : typeof v === 'string' ? v : typeof v === 'number' ? formatInt(v) : JSON.stringify(v));

/** RoutingChip: the shard a hit was written to (its routing value), in the shard's color. */
function RoutingChip({ routing, color, title }: { routing: string; color: string; title: string }) {
  return (
    <span className="dim shard" title={title}>
      <i className="swatch" style={{ background: color }} />
      {routing}
    </span>
  );
}

/** DocHits: the documents of an index of another config, nearest first. */
function DocHits({ side, unit, colorOf }: { side: LiveSide; unit: 'mi' | 'km'; colorOf: (routing: string) => string }) {
  return (
    <section className="live-hits">
      <h3>
        Top documents <span className="dim">· {side.hits.length} of {formatInt(side.total)}, nearest first</span>
      </h3>
      <ol data-testid="live-hits" data-count={side.hits.length}>
        {side.hits.map((h: LiveHit) => (
          <li key={h.id} data-testid="live-hit" data-id={h.id} data-routing={h.routing ?? ''}>
            <div className="live-hit-head">
              <b>{h.name}</b>
              {h.distanceKm !== null && <span className="dim">{formatDistance(h.distanceKm, unit)}</span>}
            </div>
            <div className="small live-tags">
              {Object.entries(h.fields ?? {}).map(([k, v]) => (
                <span key={k} className="dim">
                  {k} {fieldText(v)}
                </span>
              ))}
              {h.routing && <RoutingChip routing={h.routing} color={colorOf(h.routing)} title="The routing value the document was written with: its cell's shard" />}
            </div>
          </li>
        ))}
      </ol>
      {side.hits.length === 0 && <p className="dim">No document matches this search{side.total === 0 ? '' : ' in the returned page'}.</p>}
    </section>
  );
}

/** formatPrice writes cents as dollars: 1450 → "$14.50". */
export function formatPrice(cents: number): string {
  return Number.isFinite(cents) ? `$${(cents / 100).toFixed(2)}` : '—';
}

/** formatDistance writes km in the search's unit: 4.8 km → "3.0 mi". */
export function formatDistance(km: number | null, unit: 'mi' | 'km'): string {
  if (km === null || !Number.isFinite(km)) return '';
  const v = unit === 'mi' ? km / KM_PER_MILE : km;
  return `${v < 10 ? v.toFixed(1) : formatInt(Math.round(v))} ${unit}`;
}

export function LiveHits({ side }: { side: LiveSide }) {
  const unit = useApp((s) => s.searchRadius.unit);
  const data = useApp(readyData);
  const indexOf = new Map(data?.router.shards.map((s, i) => [s.name, i]) ?? []);
  const generic = useApp((s) => liveNoun(s.liveStatus.status) === 'documents');
  if (generic) {
    const colorOf = (routing: string) => {
      const i = indexOf.get(routing);
      return data && i !== undefined ? toHex(data.colors[i]) : '#555';
    };
    return <DocHits side={side} unit={unit} colorOf={colorOf} />;
  }
  return (
    <section className="live-hits">
      <h3>
        Top dishes <span className="dim">· {side.hits.length} of {formatInt(side.total)}, nearest restaurants first</span>
      </h3>
      <ol data-testid="live-hits" data-count={side.hits.length}>
        {side.hits.map((h) => {
          const r = h.restaurant;
          const i = h.routing ? indexOf.get(h.routing) : undefined;
          return (
            <li key={h.id} data-testid="live-hit" data-id={h.id} data-routing={h.routing ?? ''}>
              <div className="live-hit-head">
                <b>{h.name}</b>
                <span className="price">{formatPrice(h.priceCents)}</span>
              </div>
              <div className="small">
                {r ? (
                  <>
                    {r.name} <span className="dim">· {r.place}, {r.state}</span>
                    {h.distanceKm !== null && <span className="dim"> · {formatDistance(h.distanceKm, unit)}</span>}
                  </>
                ) : (
                  <span className="dim">restaurant not returned</span>
                )}
              </div>
              <div className="small live-tags">
                <span className="dim">{h.cuisine}</span>
                {Number.isFinite(h.calories) && <span className="dim">{formatInt(h.calories)} kcal</span>}
                {h.diets.map((d) => (
                  <span key={d} className="tag diet">
                    {d}
                  </span>
                ))}
                {h.allergens.length > 0 && <span className="tag allergen">contains {h.allergens.join(', ')}</span>}
                {h.routing && (
                  <span className="dim shard" title="The routing value the dish was written with: its restaurant's shard">
                    <i className="swatch" style={{ background: data && i !== undefined ? toHex(data.colors[i]) : '#555' }} />
                    {h.routing}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {side.hits.length === 0 && <p className="dim">No dish matches this search{side.total === 0 ? '' : ' in the returned page'}.</p>}
    </section>
  );
}
