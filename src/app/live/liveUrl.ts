/**
 * Live's parameters of the link (its entry `url.panel` in src/app/features.ts; shell/linkCodec.ts
 * loops over the list): `live=1`, the Live switch, and the facet filters `diet`, `allergen`,
 * `cuisine`, comma-separated values of the API's vocabulary (server/wire.ts), written in its
 * order, the order the server canonicalises to. Written with replaceState (never a history step).
 */
import { shallow } from 'zustand/shallow';
import { FILTER_KINDS, VOCABULARY, type FilterKind } from '../../server/wire';
import type { PanelParams } from '../shell/linkCodec';

declare module '../shell/linkCodec' {
  interface UrlShell {
    /** The Live switch. */
    live: boolean;
    /** Live's facet filters: values of the API's vocabulary, in its order. */
    filters: Record<FilterKind, readonly string[]>;
  }
}

export const LIVE_URL: PanelParams = {
  keys: ['live', ...FILTER_KINDS],
  defaults: () => ({ live: false, filters: { diet: [], allergen: [], cuisine: [] } }),
  parse(q, shell, problems) {
    const live = q.get('live');
    if (live !== null) {
      if (live === '1' || live === '0') shell.live = live === '1';
      else problems.push(`live=${live} is ignored: expected 1 (Live on) or 0`);
    }
    for (const kind of FILTER_KINDS) {
      const raw = q.get(kind);
      if (raw === null) continue;
      const valid = VOCABULARY[kind];
      const values = raw.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);
      const bad = values.filter((v) => !valid.includes(v));
      if (bad.length) problems.push(`${kind}: ${bad.map((b) => JSON.stringify(b)).join(', ')} ignored: expected values among ${valid.join(', ')}`);
      shell.filters[kind] = valid.filter((v) => values.includes(v));
    }
  },
  format(shell, q) {
    if (shell.live) q.set('live', '1');
    else q.delete('live');
    for (const kind of FILTER_KINDS) {
      const values = VOCABULARY[kind].filter((v) => shell.filters[kind].includes(v));
      if (values.length) q.set(kind, values.join(','));
      else q.delete(kind);
    }
  },
  of: (s) => ({ live: s.liveOn, filters: s.liveFilters }),
  apply(store, shell) {
    const s = store.getState();
    s.setLiveOn(shell.live);
    const f = s.liveFilters;
    if (!shallow(f.diet, shell.filters.diet) || !shallow(f.allergen, shell.filters.allergen) || !shallow(f.cuisine, shell.filters.cuisine)) store.setState({ liveFilters: shell.filters });
  },
};
