/**
 * The guided tour's script (issue 11): a presenter's five-minute walk through
 * search locality. Each step is a state of the app written as the query
 * string that opens it, so `?tour=N` plus the step's own parameters is a link
 * to that step (a presenter can jump back, a test can open any step).
 *
 * Plain data: no DOM, no store. The tour (tour/Tour.tsx) shows the words and
 * applies `query` through the one URL codec (shell/linkCodec.ts).
 */

/** One step of the tour. */
export interface TourStep {
  /** Stable id, also the test id part (`tour-step-<id>`). */
  id: string;
  title: string;
  /** What to look at, one or two sentences. `{k}`, `{n}` and `{routing}` are filled in from the current search. */
  text: string;
  /** The state the step opens, as a query string without `?` and without `tour`. */
  query: string;
  /** Whether the step needs a search node (the live comparison): the tour says so when none answers. */
  live?: boolean;
}

const NYC = 'lat=40.7143&lng=-74.006';

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'globe',
    title: 'The globe and its colours',
    text: 'Each colour is one shard of the index. A shard holds a patch of the map, so nearby restaurants live on the same shard.',
    query: 'lat=36&lng=-98&zoom=1&level=4&layers=shards,grid,land,labels&tab=about',
  },
  {
    id: 'hilbert',
    title: 'The Hilbert curve fills each cube face',
    text: 'S2 puts the Earth on a cube and numbers each face along a Hilbert curve. Every shard is one stretch of that curve: follow the line and the colours change in key order.',
    query: 'lat=20&lng=0&zoom=1&level=3&layers=shards,hilbert,grid,land&flatten=net&tab=about',
  },
  {
    id: 'circle',
    title: 'A city and its circle',
    text: 'A search for restaurants within 15 miles of New York covers its circle with level-10 cells (about 9 km across).',
    query: `${NYC}&radius=15mi&level=6&layers=shards,grid,land,labels`,
  },
  {
    id: 'routing',
    title: 'The routing string',
    text: 'The cells fall on {k} shard(s), so the search is sent with routing={routing}: OpenSearch asks only those shards.',
    query: `${NYC}&radius=50mi&level=6&layers=shards,grid,land,labels`,
  },
  {
    id: 'k-of-n',
    title: 'k of N shards, not all of them',
    text: 'This search asks {k} of {n} shards. A hash-sharded index spreads every city over all shards, so the same search would ask all {n}.',
    query: `${NYC}&radius=50mi&level=6&layers=shards,grid,land,labels`,
  },
  {
    id: 'fanout',
    title: 'The fan-out map',
    text: 'How many shards a search of this radius asks, centred anywhere on the map: dense regions stay local, searches across a shard boundary ask two.',
    query: `${NYC}&radius=50mi&fanout=1&zoom=3&level=4&layers=shards,land,labels`,
  },
  {
    id: 'live',
    title: 'Routed against all shards, on a real node',
    text: 'With a search node running, the same search runs twice: routed to {k} shard(s), and sent to all {n}. The hits are identical; the routed one asks fewer shards.',
    query: `${NYC}&radius=50mi&level=6&layers=shards,grid,land,labels&tab=live&live=1`,
    live: true,
  },
  {
    id: 'traffic',
    title: 'What the cluster served, over time',
    text: "The Traffic tab draws each shard's range down and time across, coloured by the searches per second the cluster's own counters recorded. A range that stays hot is outlined, and its split opens in Review.",
    query: `${NYC}&radius=50mi&level=4&layers=shards,land,labels&tab=traffic`,
  },
];
