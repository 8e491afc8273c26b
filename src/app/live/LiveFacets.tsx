/**
 * LiveFacets: the facet sidebar of the live search: diets, allergens and
 * cuisines with the number of matching dishes carrying each. Clicking a value
 * toggles it as a filter, sent with the next search:
 *   diet      keep dishes that are every picked diet
 *   allergen  keep dishes FREE of every picked allergen (the count is how many contain it)
 *   cuisine   keep dishes of any picked cuisine
 *
 * An index of another config shows its config's facets instead (FieldFacets): each field's values
 * in the circle with their counts, as the search's terms aggregations gave them (counts only: the
 * API filters by the sample's vocabulary alone).
 *
 * Test hooks: live-facets, live-facet-<kind>-<value> (aria-pressed); for a config's facets
 * live-field-facets, live-field-facet-<field> (data-field) and its chips live-field-value
 * (data-value, data-count).
 */
import { useAppStore, useApp } from '../shell/store';
import { liveNoun } from '../api/status';
import type { LiveFacet, LiveFacets as Facets } from '../api/search';
import type { LiveFilterKind } from '../api/filters';
import { formatInt } from '../shell/format';

const GROUPS: { kind: LiveFilterKind; key: keyof Facets; title: string; hint: string }[] = [
  { kind: 'diet', key: 'diets', title: 'Diets', hint: 'dishes that are every picked diet' },
  { kind: 'allergen', key: 'allergens', title: 'Free of allergens', hint: 'a pick keeps only dishes free of it; the count is how many contain it' },
  { kind: 'cuisine', key: 'cuisines', title: 'Cuisines', hint: 'dishes of any picked cuisine' },
];

/** FieldFacets: the config's facets of an index of another config, counts only. */
export function FieldFacets({ groups }: { groups: { field: string; values: LiveFacet[] }[] }) {
  if (groups.length === 0) return null;
  return (
    <section className="live-facets" data-testid="live-field-facets">
      <h3>Facets</h3>
      {groups.map((g) => (
        <div className="live-facet-group" key={g.field} data-testid={`live-field-facet-${g.field}`} data-field={g.field}>
          <h4>
            {g.field} <span className="dim small">· documents in the circle per value</span>
          </h4>
          <div className="chips">
            {g.values.map((f) => (
              <span key={f.value} className="chip" data-testid="live-field-value" data-value={f.value} data-count={f.count}>
                {f.value}
                <span className="count">{formatInt(f.count)}</span>
              </span>
            ))}
            {g.values.length === 0 && <span className="dim small">no value among the matching documents</span>}
          </div>
        </div>
      ))}
    </section>
  );
}

export function LiveFacets({ facets }: { facets: Facets | null }) {
  const appStore = useAppStore();
  const filters = useApp((s) => s.liveFilters);
  const any = filters.diet.length + filters.allergen.length + filters.cuisine.length > 0;
  // The filters are the sample's vocabulary (diets, allergens, cuisines): an index of another config has none of them.
  const generic = useApp((s) => liveNoun(s.liveStatus.status) === 'documents');
  if (generic) return null;
  return (
    <section className="live-facets" data-testid="live-facets">
      <h3>
        Filters{' '}
        {any && (
          <button type="button" className="link" data-testid="live-clear-filters" onClick={() => appStore.getState().clearLiveFilters()}>
            clear
          </button>
        )}
      </h3>
      {GROUPS.map((g) => {
        const picked = filters[g.kind];
        // Every value of the vocabulary comes with its count; keep picked values even without one.
        const list: LiveFacet[] = facets ? facets[g.key] : picked.map((value) => ({ value, count: NaN }));
        const shown = list.filter((f) => f.count > 0 || picked.includes(f.value) || Number.isNaN(f.count));
        const zero = list.length - shown.length;
        return (
          <div className="live-facet-group" key={g.kind}>
            <h4>
              {g.title} <span className="dim small">· {g.hint}</span>
            </h4>
            <div className="chips">
              {shown.map((f) => {
                const on = picked.includes(f.value);
                return (
                  <button
                    key={f.value}
                    type="button"
                    className={`chip live-facet${g.kind === 'allergen' ? ' allergen' : ''}`}
                    aria-pressed={on}
                    data-testid={`live-facet-${g.kind}-${f.value}`}
                    title={g.kind === 'allergen' ? (on ? `showing only dishes free of ${f.value}` : `${formatInt(f.count)} matching dishes contain ${f.value}: click to exclude them`) : undefined}
                    onClick={() => appStore.getState().toggleLiveFilter(g.kind, f.value)}
                  >
                    {g.kind === 'allergen' && on ? `free of ${f.value}` : f.value}
                    {!Number.isNaN(f.count) && <span className="count">{formatInt(f.count)}</span>}
                  </button>
                );
              })}
              {shown.length === 0 && <span className="dim small">none among the matching dishes</span>}
            </div>
            {zero > 0 && shown.length > 0 && <p className="dim small live-zero">{zero} more with no matching dish</p>}
          </div>
        );
      })}
    </section>
  );
}
