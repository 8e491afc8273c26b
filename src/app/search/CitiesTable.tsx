/**
 * CitiesTable: every sample city of data/cities.json with its level-10 token
 * and shard (Router.route), sortable by any column (tokens and shards sort in
 * key order, never as strings) and filterable by name, state, token or shard.
 * Clicking a row makes the city the search centre.
 */
import { useMemo, useState } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { cellAt, cellOrdinal } from '../../core/index';
import { toHex } from '../shell/palette';
import { formatCompact } from '../shell/format';
import { chooseCentre } from './search';
import { cityLabel } from '../shell/format';
import type { City } from '../shell/loadData';

/** A city with where it routes. */
export interface CityRow {
  city: City;
  token: string;
  /** Level-10 ordinal: the token's position in key order. */
  ordinal: number;
  /** Key-order index of the shard, its name and OpenSearch shard number. */
  index: number;
  shard: string;
  shardNumber: number;
}

export type CitySort = 'name' | 'state' | 'token' | 'shard' | 'population';

/** sortCityRows sorts rows by a column (ties by name); token and shard in key order. */
export function sortCityRows(rows: readonly CityRow[], by: CitySort, descending = false): CityRow[] {
  const key: Record<CitySort, (a: CityRow, b: CityRow) => number> = {
    name: (a, b) => a.city.name.localeCompare(b.city.name, 'en'),
    state: (a, b) => a.city.state.localeCompare(b.city.state, 'en'),
    token: (a, b) => a.ordinal - b.ordinal,
    shard: (a, b) => a.index - b.index || a.ordinal - b.ordinal,
    population: (a, b) => a.city.population - b.city.population,
  };
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => sign * key[by](a, b) || a.city.name.localeCompare(b.city.name, 'en'));
}

/** filterCityRows keeps rows whose name, state, country, token or shard contains the query (case-insensitive). */
export function filterCityRows(rows: readonly CityRow[], query: string): CityRow[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...rows];
  return rows.filter((r) => [r.city.name, r.city.state, r.city.country, r.token, r.shard].some((f) => f.toLowerCase().includes(q)));
}

const COLUMNS: { id: CitySort; title: string; num?: boolean }[] = [
  { id: 'name', title: 'city' },
  { id: 'state', title: 'st' },
  { id: 'token', title: 'L10 token' },
  { id: 'shard', title: 'shard' },
  { id: 'population', title: 'pop.', num: true },
];

export function CitiesTable() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const cities = useApp((s) => s.cities);
  const [sort, setSort] = useState<{ by: CitySort; desc: boolean }>({ by: 'shard', desc: false });
  const [query, setQuery] = useState('');
  const rows = useMemo<CityRow[]>(() => {
    if (!data) return [];
    return cities.map((city) => {
      const r = data.router.route(city.lat, city.lng);
      return { city, token: r.token, ordinal: cellOrdinal(cellAt(city.lat, city.lng)), index: r.index, shard: r.name, shardNumber: r.shard };
    });
  }, [data, cities]);
  const shown = useMemo(() => sortCityRows(filterCityRows(rows, query), sort.by, sort.desc), [rows, query, sort]);
  if (!data) return null;
  return (
    <div className="cities-table">
      <input type="search" placeholder="Filter by city, state, token or shard" aria-label="Filter the sample cities" data-testid="cities-filter" value={query} onChange={(e) => setQuery(e.target.value)} />
      <table className="shard-table" data-testid="cities-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.id} aria-sort={sort.by === c.id ? (sort.desc ? 'descending' : 'ascending') : 'none'} className={c.num ? 'num' : undefined}>
                <button type="button" className="sort" data-testid={`sort-${c.id}`} onClick={() => setSort((s) => ({ by: c.id, desc: s.by === c.id ? !s.desc : c.id === 'population' }))}>
                  {c.title}
                  {sort.by === c.id ? (sort.desc ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr
              key={`${r.city.name}|${r.city.state}`}
              data-testid="city-row"
              data-city={cityLabel(r.city)}
              tabIndex={0}
              onClick={() => chooseCentre(appStore, r.city.lat, r.city.lng, cityLabel(r.city))}
              onKeyDown={(e) => e.key === 'Enter' && chooseCentre(appStore, r.city.lat, r.city.lng, cityLabel(r.city))}
              onMouseEnter={() => appStore.getState().setHighlight(r.index)}
              onMouseLeave={() => appStore.getState().setHighlight(-1)}
            >
              <td>{r.city.name}</td>
              <td className="dim">{r.city.state}</td>
              <td className="mono">{r.token}</td>
              <td className="mono">
                <i className="swatch" style={{ background: toHex(data.colors[r.index]) }} /> {r.shard}
              </td>
              <td className="num dim">{formatCompact(r.city.population)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="dim small">
        {shown.length} of {rows.length} cities · click a row to search around it
      </p>
    </div>
  );
}
