/**
 * CitySearch: a search box over every sample city (data/cities.json):
 * typing lists up to MAX_MATCHES matches (name starts, then contains; the
 * state code matches too); Enter or a click picks one as the search centre.
 */
import { useMemo, useState } from 'react';
import { appStore, useApp } from '../shell/store';
import { chooseCentre } from './search';
import { cityLabel } from './searchGeometry';
import type { City } from '../shell/loadData';

const MAX_MATCHES = 8;

/** matchCities returns the cities whose "Name, ST" matches a query (case-insensitive): prefix matches first, then substring, each by population. */
export function matchCities(cities: readonly City[], query: string, max = MAX_MATCHES): City[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const scored: { c: City; rank: number }[] = [];
  for (const c of cities) {
    const label = cityLabel(c).toLowerCase();
    const rank = label.startsWith(q) ? 0 : label.includes(q) ? 1 : -1;
    if (rank >= 0) scored.push({ c, rank });
  }
  scored.sort((a, b) => a.rank - b.rank || b.c.population - a.c.population);
  return scored.slice(0, max).map((x) => x.c);
}

export function CitySearch() {
  const cities = useApp((s) => s.cities);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const matches = useMemo(() => matchCities(cities, query), [cities, query]);
  const pick = (c: City) => {
    chooseCentre(appStore, c.lat, c.lng, cityLabel(c));
    setQuery('');
  };
  return (
    <div className="city-search">
      <input
        type="search"
        placeholder={cities.length ? `Search ${cities.length} sample cities…` : 'Loading cities…'}
        aria-label="Search the sample cities"
        data-testid="city-search"
        value={query}
        disabled={!cities.length}
        onChange={(e) => {
          setQuery(e.target.value);
          setCursor(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setCursor((c) => Math.min(c + 1, matches.length - 1));
          else if (e.key === 'ArrowUp') setCursor((c) => Math.max(c - 1, 0));
          else if (e.key === 'Enter' && matches[cursor]) pick(matches[cursor]);
          else if (e.key === 'Escape') setQuery('');
          else return;
          e.preventDefault();
        }}
      />
      {matches.length > 0 && (
        <ul className="city-matches" role="listbox" data-testid="city-matches">
          {matches.map((c, i) => (
            <li key={`${c.name}|${c.state}`} role="option" aria-selected={i === cursor}>
              <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => pick(c)}>
                {cityLabel(c)} <span className="dim">{c.country !== 'US' ? c.country : ''}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
