/**
 * The one URL codec: reads and writes the whole state a link carries, with one meaning per
 * parameter. The host's parameters (the view, the tab, debug) are in shell/url.ts; each feature
 * declares its own in its entry of the feature list (src/app/features.ts, `url`: the keys it
 * reads and writes, parse and format, how they come from and go into the store), and this
 * file loops over the list. The address bar's format is the list's, in its order.
 *
 *   ?lat=40.7143&lng=-74.006&radius=15mi&zoom=210&level=4&layers=shards,grid,land,labels
 *
 * | parameter   | declared by | meaning |
 * |-------------|-------------|---------|
 * | lat, lng    | host (url.ts), search | the point the link is about (degrees): the search centre when the link has a radius, else the view's centre |
 * | view        | search      | where the camera looks (lat,lng), only when that is not the search centre |
 * | zoom        | host        | zoom factor (1 = the whole globe fits, shown as 100%); absent with a search: fit the circle |
 * | level       | host        | the S2 level drawn, 0 to 10 |
 * | layers      | host        | the layers that are on (an empty value turns all off) |
 * | flatten     | host        | `map` (equirectangular) or `net` (unfolded cube); absent for the globe |
 * | radius      | search      | the search radius, a positive number with `mi` or `km` (bare = miles), at most MAX_RADIUS_KM (the core's parseRadius) |
 * | location    | search      | `none`: the no-location search (every shard asked) |
 * | fanout      | search      | `1`: the fan-out map on (a field of the search slice) |
 * | candidate   | review      | a proposed boundary file to review (a same-origin path or an http(s) URL; url.ts candidateUrl) |
 * | boundaries  | host        | the boundary file to open instead of the bundled one (a same-origin path; read by loadData.boundariesSource) |
 * | debug       | host        | `ordinal`: draw cell ordinals instead of shard colors |
 * | tab         | host        | the side panel's open tab (TABS); absent for the first one |
 * | live        | live        | `1`: the Live switch on |
 * | diet, allergen, cuisine | live | Live's facet filters, comma-separated values of the API's vocabulary |
 * | review      | review      | `local`: reopen the candidate kept in this browser (one opened with the picker or dropped); replaces candidate= |
 * | tour        | tour        | `N`: step N of the guided tour (1 = the first) |
 *
 * A link has two parts besides the view. The search part (`url.search` of a feature) is
 * written with the view by shell/address.ts, a history entry per search step; the panel part
 * (`url.panel`) by shell/shellState.ts with replaceState. parseUrl reads them all once;
 * applyLink puts a link's search (and, on back/forward, its view) into the store; formatUrl
 * writes view and search back, formatUrlShell the panel state, each keeping every other
 * parameter of the current query. Bad values are ignored one by one with a message naming the
 * parameter, its value and what is valid, so a hand-edited link still opens (the page shows
 * the messages and rewrites the address bar to what it shows).
 *
 * Load order: this file reads the feature list when it loads (DEFAULT_SHELL), so no module the
 * feature list imports may import this one (a feature's codec imports only its types).
 */
import type { AppState } from './store';
import type { AppStore } from './types';
import { FEATURES } from '../features';
import { urlViewOf } from '../globe/viewSlice';
import { DEFAULT_VIEW, HOST_STILL_PARAMS, TABS, debugOrdinal, formatUrlView, parseUrlView, queryString, type TabId, type UrlView } from './url';

/** The search part of a link: each feature that has one declares its fields here (declaration merging, as on AppState). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface UrlSearch {}

/** The panel state a link carries besides view and search: the host's tab, and each feature's fields (declaration merging). */
export interface UrlShell {
  tab: TabId;
}

/** The search part as its codecs read and write it: the search, and the camera's centre it is seen from (null: at the search's centre, or none). */
export interface SearchPart {
  search: UrlSearch;
  camera: { lat: number; lng: number } | null;
}

/** A feature's parameters in one part of the link (P: UrlShell or SearchPart). */
export interface UrlParams<P> {
  /** The query keys it reads and writes (no two features share one; src/app/kit.test.ts). */
  keys: readonly string[];
  /** Those of its keys that make a link open still (a search, a candidate, a tour step). */
  still?: readonly string[];
  /** parse reads its keys from q into `into` (which holds every feature's defaults), pushing a message per ignored value. */
  parse(q: URLSearchParams, into: P, problems: string[]): void;
  /** format writes its fields of `from` into q, deleting its keys where the field has its default. */
  format(from: P, q: URLSearchParams): void;
}

/** A feature's parameters of the search part: written with the view, a history entry per step. */
export interface SearchParams extends UrlParams<SearchPart> {
  /** Its fields of UrlSearch when the link has none of its keys. */
  defaults(): Partial<UrlSearch>;
  /** of reads its fields from the store. */
  of(s: AppState): Partial<UrlSearch>;
  /** apply puts a parsed link's fields into the store (the view is applied already). */
  apply(store: AppStore, link: ParsedUrl): void;
  /** A change of `step` is a new history entry; a change of `drag` is one unless `drag` changed less than a second before (a slider drag is one entry). */
  history?: { step(s: AppState): string; drag?(s: AppState): string };
}

/** A feature's parameters of the panel part: written with replaceState, never a history step unless `isStep`. */
export interface PanelParams extends UrlParams<UrlShell> {
  defaults(): Partial<UrlShell>;
  of(s: AppState): Partial<UrlShell>;
  /** apply puts a link's fields into the store (at boot and on a tour's back/forward); absent when another part applies them. */
  apply?(store: AppStore, shell: UrlShell): void;
  /** isStep tells whether back/forward to this entry (or from the state now) applies the entry's whole panel state. */
  isStep?(shell: UrlShell, s: AppState): boolean;
}

/** A feature's parameters of the link, by part (its entry `url` in src/app/features.ts). */
export interface FeatureUrl {
  search?: SearchParams;
  panel?: PanelParams;
}

const SEARCH_PARAMS: readonly SearchParams[] = FEATURES.flatMap((f) => (f.url?.search ? [f.url.search] : []));
const PANEL_PARAMS: readonly PanelParams[] = FEATURES.flatMap((f) => (f.url?.panel ? [f.url.panel] : []));

/** Every parameter that makes a link open still: the host's and each feature's. */
export const STILL_PARAMS: readonly string[] = [...HOST_STILL_PARAMS, ...[...SEARCH_PARAMS, ...PANEL_PARAMS].flatMap((p) => p.still ?? [])];

/** What parseUrlSearch reads: the search, plus the view parameters that depend on it. */
export interface ParsedUrlSearch {
  search: UrlSearch;
  /** The camera's centre from `view=`, when the link has a search centre and a valid view. */
  camera: { lat: number; lng: number } | null;
  /** Whether the link sets the zoom itself (else the view fits the circle). */
  hasZoom: boolean;
  problems: string[];
}

const searchDefaults = (): UrlSearch => Object.assign({}, ...SEARCH_PARAMS.map((p) => p.defaults())) as UrlSearch;

/** parseUrlSearch reads the search parameters of a query string (with or without `?`). */
export function parseUrlSearch(query: string): ParsedUrlSearch {
  const q = new URLSearchParams(query);
  const problems: string[] = [];
  const part: SearchPart = { search: searchDefaults(), camera: null };
  for (const p of SEARCH_PARAMS) p.parse(q, part, problems);
  return { search: part.search, camera: part.camera, hasZoom: q.get('zoom') !== null, problems };
}

/**
 * formatUrlSearch writes the search into a query string that already holds the view
 * (formatUrlView's output, where lat/lng are the camera's centre), returning it with `?`.
 * With a centre, lat/lng become the centre and the camera moves to `view=` unless it looks at
 * the centre (to 4 decimals). Without one, the search parameters are removed.
 */
export function formatUrlSearch(search: UrlSearch, camera: { lat: number; lng: number }, base: string): string {
  const q = new URLSearchParams(base);
  for (const p of SEARCH_PARAMS) p.format({ search, camera }, q);
  return queryString(q);
}

/** The panel state of a link that has no panel parameters. */
export const DEFAULT_SHELL: Readonly<UrlShell> = Object.freeze(shellDefaults());

function shellDefaults(): UrlShell {
  return Object.assign({ tab: TABS[0] }, ...PANEL_PARAMS.map((p) => p.defaults())) as UrlShell;
}

/** parseUrlShell reads the panel parameters of a query string (with or without `?`); bad values are ignored with a message each. */
export function parseUrlShell(query: string): { shell: UrlShell; problems: string[] } {
  const q = new URLSearchParams(query);
  const problems: string[] = [];
  const shell = shellDefaults();
  const tab = q.get('tab');
  if (tab !== null) {
    if ((TABS as readonly string[]).includes(tab)) shell.tab = tab as TabId;
    else problems.push(`tab=${tab} is ignored: expected one of ${TABS.join(', ')}`);
  }
  for (const p of PANEL_PARAMS) p.parse(q, shell, problems);
  return { shell, problems };
}

/** formatUrlShell writes the panel state into a query string (returned with `?`), keeping the other parameters of base; defaults are left out. */
export function formatUrlShell(shell: UrlShell, base: string): string {
  const q = new URLSearchParams(base);
  if (shell.tab === TABS[0]) q.delete('tab');
  else q.set('tab', shell.tab);
  for (const p of PANEL_PARAMS) p.format(shell, q);
  return queryString(q);
}

/** Everything a link says, read once by parseUrl. */
export interface ParsedUrl {
  /** The view; with a search centre, lat/lng are the camera's (view= or the centre). */
  view: UrlView;
  search: UrlSearch;
  /** The side panel's state: the tab and each feature's panel fields. */
  shell: UrlShell;
  /** Whether the link sets the zoom itself (else a search's view fits the circle). */
  hasZoom: boolean;
  /** `debug=ordinal`: cells drawn by ordinal. */
  debugOrdinal: boolean;
  problems: string[];
}

/** The point a search part names as its centre, if any (the search feature's `centre`). */
const centreOf = (search: UrlSearch): { lat: number; lng: number } | null => (search as { centre?: { lat: number; lng: number } | null }).centre ?? null;

/**
 * parseUrl reads a whole query string (with or without `?`): lat/lng are the search centre
 * when there is a radius (the camera then looks at view=, or at the centre), else the view's
 * centre.
 */
export function parseUrl(query: string): ParsedUrl {
  const { view, problems: viewProblems } = parseUrlView(query, DEFAULT_VIEW, STILL_PARAMS);
  const { search, camera, hasZoom, problems } = parseUrlSearch(query);
  const centre = centreOf(search);
  if (centre) {
    const at = camera ?? centre;
    view.lat = at.lat;
    view.lng = at.lng;
  }
  const { shell, problems: shellProblems } = parseUrlShell(query);
  return { view, search, shell, hasZoom, debugOrdinal: debugOrdinal(query), problems: [...viewProblems, ...problems, ...shellProblems] };
}

/** formatUrl writes the view and the search as a query string (with `?`), keeping the other parameters of base. */
export function formatUrl(view: UrlView, search: UrlSearch, base: string): string {
  return formatUrlSearch(search, view, formatUrlView(view, base));
}

/** searchOf returns the search part of the state as the URL holds it. */
export function searchOf(s: AppState): UrlSearch {
  return Object.assign({}, ...SEARCH_PARAMS.map((p) => p.of(s))) as UrlSearch;
}

/** formatUrlState writes the whole state (view and search) as a query string, keeping other parameters of base. */
export function formatUrlState(s: AppState, base: string): string {
  return formatUrl(urlViewOf(s), searchOf(s), base);
}

/** shellOf returns the panel state as the URL holds it. */
export function shellOf(s: AppState): UrlShell {
  return Object.assign({ tab: s.tab }, ...PANEL_PARAMS.map((p) => p.of(s))) as UrlShell;
}

/** shellKey lists the panel state's values (primitives and stable references), for a shallow-compared subscription. */
export function shellKey(s: AppState): unknown[] {
  return [s.tab, ...PANEL_PARAMS.flatMap((p) => Object.values(p.of(s)))];
}

/** applyShell puts a link's panel state into the store. */
export function applyShell(store: AppStore, shell: UrlShell): void {
  store.getState().setTab(shell.tab);
  for (const p of PANEL_PARAMS) p.apply?.(store, shell);
}

/** isPanelStep tells whether back/forward to an entry with this panel state applies it whole (a feature's isStep, such as a tour step). */
export function isPanelStep(shell: UrlShell, s: AppState): boolean {
  return PANEL_PARAMS.some((p) => p.isStep?.(shell, s));
}

/** historyKeys returns the search part's step and drag keys (see SearchParams.history). */
export function historyKeys(s: AppState): { step: string; drag: string } {
  return {
    step: JSON.stringify(SEARCH_PARAMS.map((p) => p.history?.step(s) ?? '')),
    drag: JSON.stringify(SEARCH_PARAMS.map((p) => p.history?.drag?.(s) ?? '')),
  };
}

/**
 * applyLink applies a query string's search (and, on back/forward, its view) to the store:
 * each feature's search fields (the radius search puts its centre and the camera, zoomed to fit
 * the circle when the link has no zoom). At boot the view itself was applied by boot(); on
 * back/forward (atBoot false) it is applied here.
 */
export function applyLink(store: AppStore, query: string, atBoot: boolean): void {
  const link = parseUrl(query);
  const s = store.getState();
  if (!atBoot) {
    s.applyUrlView(link.view);
    s.frame.fly = null;
  }
  for (const p of SEARCH_PARAMS) p.apply(store, link);
  s.frame.invalidate();
}
