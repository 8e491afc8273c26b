/**
 * The radius explorer's panel (the article's Plate II), in the two parts that load after the
 * globe's first frame: above the result, the centre (a preset, any sample city, or a click on
 * the globe while this panel is open) and the radius; below it, the fan-out map switch (the
 * fanout feature's, in the slot `radius-fanout`: shell/Slot.tsx), the sample cities and the
 * worked searches. The result between them (SearchResult: the cells, the shards the search asks
 * and the exact routing string) is mounted with the first frame (featureViews.ts radiusPanel).
 */
import { useEffect } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { chooseCentre, enableClickPicking } from './search';
import { centreLabel, cityLabel } from '../shell/format';
import { RadiusControl } from './RadiusControl';
import { CitySearch } from './CitySearch';
import { Slot } from '../shell/Slot';
import { CitiesTable } from './CitiesTable';
import { WorkedSearches } from './WorkedSearches';
import { PRESET_CITIES } from '../../core/searches.ts';
import '../ui/radius.css';


/** slug turns a city name into a test id part: "New York" → "new-york". */
export const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function Presets() {
  const appStore = useAppStore();
  const cities = useApp((s) => s.cities);
  const centre = useApp((s) => s.searchCentre);
  return (
    <div className="chips presets">
      {PRESET_CITIES.map((p) => {
        const c = cities.find((x) => x.name === p.name && x.state === p.state);
        const on = !!c && !!centre && centre.lat === c.lat && centre.lng === c.lng;
        return (
          <button key={p.name} type="button" className="chip" aria-pressed={on} disabled={!c} data-testid={`preset-${slug(p.name)}`} onClick={() => c && chooseCentre(appStore, c.lat, c.lng, cityLabel(c))}>
            {p.name}
          </button>
        );
      })}
    </div>
  );
}

function CentreReadout() {
  const appStore = useAppStore();
  const centre = useApp((s) => s.searchCentre);
  const cities = useApp((s) => s.cities);
  const noLocation = useApp((s) => s.noLocation);
  if (!centre) return <p className="centre-readout dim">No centre yet: pick a city, or click anywhere on the globe.</p>;
  return (
    <p className="centre-readout">
      <span className="pin-dot" aria-hidden="true" />
      <b data-testid="centre-label">{centre.label || centreLabel(centre.lat, centre.lng, cities)}</b>
      {noLocation ? <span className="dim">(not used: no location)</span> : <span className="dim small">· click the globe to move it</span>}
      <button type="button" className="link" data-testid="clear-search" onClick={() => appStore.getState().clearSearch()}>
        clear
      </button>
    </p>
  );
}

/**
 * RadiusPanelTop: the panel's part above the result (the intro, the centre's pickers, the radius),
 * and the globe's click-to-pick. Loads after the first frame (featureViews.ts).
 */
export function RadiusPanelTop() {
  const appStore = useAppStore();
  useEffect(() => enableClickPicking(appStore), []);
  return (
    <>
      <p className="panel-intro">
        A radius search covers its circle with level-10 cells and asks only the shards those cells belong to. Pick a centre and drag the radius.
      </p>
      <section>
        <h3>Search centre</h3>
        <Presets />
        <CitySearch />
        <CentreReadout />
      </section>
      <RadiusControl />
    </>
  );
}

/** RadiusPanelRest: the panel's part below the result (the fan-out slot, the sample cities, the worked searches). Loads after the first frame. */
export function RadiusPanelRest() {
  return (
    <>
      <Slot name="radius-fanout" />
      <details className="radius-table" data-testid="cities-details">
        <summary>Sample cities</summary>
        <CitiesTable />
      </details>
      <details className="radius-table" data-testid="worked-details">
        <summary>Worked searches</summary>
        <WorkedSearches />
      </details>
    </>
  );
}
