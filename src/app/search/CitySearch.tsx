/**
 * CitySearch: the search box. Over every sample city (data/cities.json): typing lists up to
 * MAX_MATCHES matches (name starts, then contains; the state code matches too); Enter or a
 * click picks one as the search centre. It also takes what engineers paste (read by
 * search/paste.ts): an S2 token of any level (drawn on the globe, its shard or shards named:
 * PastedCellCard), a `lat,lng` pair (the search centre), and in live mode a document id
 * (looked up on the cluster: DocumentCard). A text that is almost one of those (a token with
 * a face above 5, a latitude of 95) says why under the box.
 *
 * Test hooks: city-search (the input), city-matches (the list), paste-option (the pasted
 * reading in the list), paste-error, paste-cell, paste-doc.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { chooseCentre, flyToFit } from './search';
import { cityLabel } from '../shell/format';
import { formatLatLng } from '../shell/format';
import { parsePasted, type Pasted } from './paste';
import { parseAnyToken, cellShards } from '../../core/anyCell';
import { cellCenter } from '../../core/index';
import { cellExtentKm } from './pastedCellGeometry';
import { lookupDocument, type DocLookup } from '../api/documents';
import { PastedCellCard, DocumentCard } from './PastedCards';
import type { City } from '../shell/loadData';
import '../ui/radius.css';
import type { AppStore } from '../shell/types';

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

/** One entry of the list: a city, or the pasted reading. */
interface Option {
  key: string;
  label: string;
  note?: string;
  paste?: boolean;
  pick: () => void;
}

/** showCell draws a cell of any level, names its shards (the card reads the store) and glides to it. */
export function showCell(appStore: AppStore, token: string): void {
  const cell = parseAnyToken(token);
  appStore.getState().setPastedCell({ token: cell.token, level: cell.level });
  const c = cellCenter(cell.id);
  flyToFit(appStore, c.lat, c.lng, cellExtentKm(cell.id));
}

/** The document looked up last: its id, and the answer once it came. */
type DocState = { id: string; answer: DocLookup | null };

function pasteLabel(p: Pasted, shardNames: (token: string) => string): { label: string; note: string } | null {
  if (p.kind === 'cell') return { label: `S2 cell ${p.cell.token}`, note: `level ${p.cell.level} · ${shardNames(p.cell.token)}` };
  if (p.kind === 'point') return { label: `Search at ${formatLatLng(p.lat, p.lng)}`, note: 'lat,lng' };
  if (p.kind === 'doc') return { label: `Find document ${p.id}`, note: 'live index' };
  return null;
}

export function CitySearch() {
  const appStore = useAppStore();
  const cities = useApp((s) => s.cities);
  const live = useApp((s) => s.liveOn);
  const data = useApp(readyData);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const [doc, setDoc] = useState<DocState | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const listId = useId();
  const errorId = useId();
  const pasted = useMemo(() => parsePasted(query, { live }), [query, live]);
  const matches = useMemo(() => matchCities(cities, query), [cities, query]);

  const findDocument = (id: string) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setDoc({ id, answer: null });
    void lookupDocument(id, ctl.signal).then((answer) => {
      if (ctl.signal.aborted) return;
      setDoc({ id, answer });
      if (answer.ok) {
        // The document's level-10 cell is drawn like a pasted one.
        appStore.getState().setPastedCell({ token: answer.doc.cell, level: 10 });
        const cell = parseAnyToken(answer.doc.cell);
        flyToFit(appStore, answer.doc.location.lat, answer.doc.location.lng, cellExtentKm(cell.id) * 3);
      }
    });
  };

  const options = useMemo((): Option[] => {
    const cityOptions: Option[] = matches.map((c) => ({
      key: `${c.name}|${c.state}`,
      label: cityLabel(c),
      note: c.country !== 'US' ? c.country : '',
      pick: () => {
        chooseCentre(appStore, c.lat, c.lng, cityLabel(c));
        setQuery('');
      },
    }));
    const names = (token: string) => {
      if (!data) return '';
      const s = cellShards(data.router, parseAnyToken(token).id);
      return `${s.shards.length === 1 ? 'shard' : `${s.shards.length} shards`} ${s.shards.map((x) => x.name).join(', ')}`;
    };
    const lbl = pasteLabel(pasted, names);
    if (!lbl) return cityOptions;
    const paste: Option = {
      key: 'paste',
      ...lbl,
      paste: true,
      pick: () => {
        if (pasted.kind === 'cell') showCell(appStore, pasted.cell.token);
        else if (pasted.kind === 'point') chooseCentre(appStore, pasted.lat, pasted.lng, formatLatLng(pasted.lat, pasted.lng));
        else if (pasted.kind === 'doc') findDocument(pasted.id);
        setQuery('');
      },
    };
    // A word that happens to be hex ("bad") is more likely a city: the cities come first then.
    return /\d/.test(query) || cityOptions.length === 0 ? [paste, ...cityOptions] : [...cityOptions, paste];
  }, [matches, pasted, data, query]);

  const invalid = query.trim() !== '' && pasted.kind === 'invalid' ? pasted.message : null;
  const open = options.length > 0;
  const active = Math.min(cursor, options.length - 1);
  return (
    <div className="city-search">
      <input
        type="search"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? errorId : undefined}
        placeholder={cities.length ? `A city, an S2 token, lat,lng${live ? ' or a document id' : ''}…` : 'Loading cities…'}
        aria-label={`Search the sample cities, or paste an S2 cell token, a lat,lng pair${live ? ' or a document id' : ''}`}
        data-testid="city-search"
        value={query}
        disabled={!cities.length}
        onChange={(e) => {
          setQuery(e.target.value);
          setCursor(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setCursor((c) => Math.min(c + 1, options.length - 1));
          else if (e.key === 'ArrowUp') setCursor((c) => Math.max(c - 1, 0));
          else if (e.key === 'Enter' && options[active]) options[active].pick();
          else if (e.key === 'Escape') setQuery('');
          else return;
          e.preventDefault();
        }}
      />
      <ul className="city-matches" role="listbox" id={listId} aria-label="Matches" data-testid="city-matches" hidden={!open}>
        {options.map((o, i) => (
          <li
            key={o.key}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={o.paste ? 'paste-option' : undefined}
            data-testid={o.paste ? 'paste-option' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => o.pick()}
          >
            {o.label} {o.note && <span className="dim">{o.note}</span>}
          </li>
        ))}
      </ul>
      {invalid && (
        <p className="field-problem" id={errorId} role="alert" data-testid="paste-error">
          {invalid}
        </p>
      )}
      <PastedCellCard />
      {doc && <DocumentCard id={doc.id} answer={doc.answer} onClose={() => setDoc(null)} />}
    </div>
  );
}
