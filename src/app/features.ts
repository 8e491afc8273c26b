/**
 * The explorer's features, in one list: each names its store slice and the driver boot starts
 * for it (shell/store.ts builds the store from these slices, in this order, between the host's
 * data and view slices and the shell's own; shell/boot.ts starts these drivers, in this order,
 * once the link's view is applied). What each feature draws and shows (its side-panel tabs,
 * its layers on the globe, its controls over it, its strips) is in featureViews.ts, which the
 * shell's panels, the globe's canvas and the layout loop over; the two files are one list split
 * where it must be: this one holds no component, so the store can be built from it without
 * importing the components that read the store.
 *
 * To add a feature: a folder src/app/<feature>/ with its slice (fields declared on AppState in
 * shell/types.ts), an entry here, and its views in featureViews.ts. The rendering kit (globe/)
 * never imports a feature (src/app/kit.test.ts).
 */
import type { AppStore, SliceCreator } from './shell/types';
import { createSearchSlice } from './search/searchSlice';
import { createLiveSlice } from './live/liveSlice';
import { createReviewSlice } from './review/reviewSlice';
import { createFanoutSlice } from './fanout/fanoutSlice';
import { createRequestsSlice } from './requests/requestsSlice';
import { createNodesSlice } from './nodes/nodesSlice';
import { createMigrationSlice } from './migration/migrationSlice';
import { createWriteSlice } from './write/writeSlice';
import { startSearch } from './search/search';
import { startFanout } from './fanout/fanoutLayer';
import { startRegionPaint } from './nodes/regionPaintDriver';
import { startMovingPaint } from './migration/movingRanges';
import type { FeatureUrl } from './shell/link';
import { SEARCH_URL } from './search/searchUrl';
import { LIVE_URL } from './live/liveUrl';
import { REVIEW_URL } from './review/reviewUrl';
import { TOUR_URL } from './tour/tourUrl';

export interface Feature {
  /** The feature's folder under src/app. */
  id: string;
  /** Its store slice, if it has one. */
  slice?: SliceCreator<object>;
  /** The driver boot starts for it (after the link's view is applied, before the data loads); returns its stop. */
  start?: (store: AppStore) => () => void;
  /** Its parameters of the link (shell/link.ts loops over them in this list's order, which is the address bar's). */
  url?: FeatureUrl;
}

export const FEATURES: readonly Feature[] = [
  // The radius search from the link, its covering, and the address bar (view and search, with back/forward).
  { id: 'search', slice: createSearchSlice, url: { search: SEARCH_URL }, start: (store) => startSearch(store) },
  { id: 'live', slice: createLiveSlice, url: { panel: LIVE_URL } },
  { id: 'review', slice: createReviewSlice, url: { panel: REVIEW_URL } },
  // The fan-out map's fields (which shards each place's searches ask), computed in its worker.
  { id: 'fanout', slice: createFanoutSlice, start: (store) => startFanout(store) },
  { id: 'requests', slice: createRequestsSlice },
  // The globe's "colour regions by" paint (nodes, no started copy, latency, lost shards marked).
  { id: 'nodes', slice: createNodesSlice, start: startRegionPaint },
  // The key ranges a live migration is moving, marked on the globe.
  { id: 'migration', slice: createMigrationSlice, start: startMovingPaint },
  { id: 'write', slice: createWriteSlice },
  { id: 'shards' },
  { id: 'tour', url: { panel: TOUR_URL } },
];
