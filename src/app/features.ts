/**
 * The explorer's features, in one list: each names its store slice, its drivers and its
 * parameters of the link (shell/store.ts builds the store from these slices, in this order,
 * between the host's data and view slices and the shell's own; shell/boot.ts starts every
 * driver, through shell/drivers.ts, once the link is applied; shell/linkCodec.ts reads and writes
 * the link over their `url`). What each feature draws and shows (its side-panel tabs,
 * its layers on the globe, its controls over it, its strips) is in featureViews.ts, which the
 * shell's panels, the globe's canvas and the layout loop over; the two files are one list split
 * where it must be: this one holds no component, so the store can be built from it without
 * importing the components that read the store.
 *
 * To add a feature: a folder src/app/<feature>/ with its slice (fields declared on AppState in
 * shell/types.ts), an entry here, and its views in featureViews.ts. The rendering kit (globe/)
 * never imports a feature (src/app/kit.test.ts).
 */
import type { SliceCreator } from './shell/types';
import type { Driver } from './shell/drivers';
import { createSearchSlice } from './search/searchSlice';
import { createLiveSlice } from './live/liveSlice';
import { createReviewSlice } from './review/reviewSlice';
import { createFanoutSlice } from './fanout/fanoutSlice';
import { createRequestsSlice } from './requests/requestsSlice';
import { createNodesSlice } from './nodes/nodesSlice';
import { createMigrationSlice } from './migration/migrationSlice';
import { createTrafficSlice } from './traffic/trafficSlice';
import { createWriteSlice } from './write/writeSlice';
import { startSearch } from './search/search';
import { startFanout } from './fanout/fanoutLayer';
import { startRegionPaint } from './nodes/regionPaintDriver';
import { startMovingPaint } from './migration/movingRanges';
import type { FeatureUrl } from './shell/linkCodec';
import { SEARCH_URL } from './search/searchUrl';
import { LIVE_URL } from './live/liveUrl';
import { REVIEW_URL } from './review/reviewUrl';
import { TOUR_URL } from './tour/tourUrl';

export interface Feature {
  /** The feature's folder under src/app. */
  id: string;
  /** Its store slice, if it has one. */
  slice?: SliceCreator<object>;
  /** Its drivers: boot starts them all (shell/drivers.ts), in this list's order, each by its `when`, and keeps their stop functions. */
  drivers?: readonly Driver[];
  /** Its parameters of the link (shell/linkCodec.ts loops over them in this list's order, which is the address bar's). */
  url?: FeatureUrl;
}

export const FEATURES: readonly Feature[] = [
  // The radius search's covering (its link parameters are applied by boot and kept in the address bar by shell/address.ts).
  { id: 'search', slice: createSearchSlice, url: { search: SEARCH_URL }, drivers: [{ name: 'startSearch', start: (store) => startSearch(store) }] },
  // Live mode's searches on the real node, while the Live tab is open.
  {
    id: 'live',
    slice: createLiveSlice,
    url: { panel: LIVE_URL },
    drivers: [{ name: 'startLiveRunner', when: (s) => s.tab === 'live', start: (store) => import('./live/liveRunner').then((m) => m.startLiveRunner(store)) }],
  },
  // The review: `?candidate=` links, dropped files, the review worker and its workload, once the first frame is drawn.
  {
    id: 'review',
    slice: createReviewSlice,
    url: { panel: REVIEW_URL },
    drivers: [{ name: 'startReview', when: 'firstFrame', start: (store) => import('./review/reviewDriver').then((m) => m.startReview(store)) }],
  },
  // The fan-out map's fields (which shards each place's searches ask), computed in its worker.
  { id: 'fanout', slice: createFanoutSlice, drivers: [{ name: 'startFanout', start: (store) => startFanout(store) }] },
  // The request workload: loaded when the layer or the review wants it, rated and its hot ranges found in the review's worker.
  {
    id: 'requests',
    slice: createRequestsSlice,
    drivers: [{ name: 'startRequests', when: 'firstFrame', start: (store) => import('./requests/requestsDriver').then((m) => m.startRequests(store)) }],
  },
  // The globe's "color regions by" paint (nodes, no started copy, latency, lost shards marked);
  // while the Nodes tab is open, its poll of the cluster and regions colored by node.
  {
    id: 'nodes',
    slice: createNodesSlice,
    drivers: [
      { name: 'startRegionPaint', start: startRegionPaint },
      { name: 'startNodesView', when: (s) => s.tab === 'nodes', start: (store) => import('./nodes/nodesPoller').then((m) => m.startNodesView(store)) },
    ],
  },
  // The key visualizer: while the Traffic tab is open, its poll of the recorded traffic.
  {
    id: 'traffic',
    slice: createTrafficSlice,
    drivers: [{ name: 'startTrafficView', when: (s) => s.tab === 'traffic', start: (store) => import('./traffic/trafficPoller').then((m) => m.startTrafficView(store)) }],
  },
  // The key ranges a live migration is moving, marked on the globe; while the Migration tab is open, its poll.
  {
    id: 'migration',
    slice: createMigrationSlice,
    drivers: [
      { name: 'startMovingPaint', start: startMovingPaint },
      { name: 'startMigrationWatch', when: (s) => s.tab === 'migration', start: (store) => import('./migration/migrationPoller').then((m) => m.startMigrationWatch(store)) },
    ],
  },
  { id: 'write', slice: createWriteSlice },
  { id: 'shards' },
  { id: 'tour', url: { panel: TOUR_URL } },
];
