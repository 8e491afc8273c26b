/**
 * The request workload's wiring in the page (the DOM half of
 * requests/requestsSlice.ts): fetches the bundled data/workload.csv the first
 * time the Requests layer or the review needs a workload, reads a workload
 * file the user picks, hands the text to the review worker (parsed with the
 * core's parseWorkload, covered and rated there, never on the main thread)
 * and asks it for the current file's hot ranges whenever the file, the cells
 * or the workload change. Started from src/app/features.ts after the first
 * frame; it works once the review's driver has put its worker's client in the
 * store (workloadClient), and asks for the cells through the store too
 * (requestCellsWanted): it imports nothing of the review.
 *
 * Test hook on <body>: data-requests = "<source> <file hash>" once the rates
 * and the hot ranges for that file are in the store.
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/store';
import type { AppStore } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { fetchText } from '../shell/loadData';
import type { WorkloadClient } from '../shell/workload';
import { BUNDLED_WORKLOAD_NAME } from '../shell/workload';
import { HOT_FACTOR } from './requests';

const BUNDLED = import.meta.glob('/data/workload.csv', { query: '?url', import: 'default', eager: true }) as Record<string, string>;

/** The bundled workload: its URL (undefined when data/workload.csv is missing) and how people know it. */
export const BUNDLED_WORKLOAD = { url: BUNDLED['/data/workload.csv'] as string | undefined, name: BUNDLED_WORKLOAD_NAME };

let wiring: { store: AppStore; client: WorkloadClient } | null = null;
/** Counts loads, so an older load that finishes late does not replace a newer one. */
let generation = 0;

async function load(source: string, text: () => Promise<string>): Promise<void> {
  if (!wiring) return;
  const { store, client } = wiring;
  const mine = ++generation;
  store.getState().setRequestLoading(source);
  try {
    const w = await client.workload(await text(), source);
    if (mine === generation) store.getState().setRequestWorkload(w);
  } catch (e) {
    if (mine === generation) store.getState().setRequestError(source, (e as Error).message);
  }
}

/** loadBundledWorkload loads the bundled data/workload.csv (again, replacing a picked file). */
export function loadBundledWorkload(): void {
  if (!wiring) return;
  const url = BUNDLED_WORKLOAD.url;
  if (!url) {
    wiring.store.getState().setRequestError(BUNDLED_WORKLOAD.name, `${BUNDLED_WORKLOAD.name} is missing: make one with "npx geoshard workload --searches 1000 --seed 1 --out data/workload.csv", or open a workload file`);
    return;
  }
  void load(BUNDLED_WORKLOAD.name, () => fetchText(url, BUNDLED_WORKLOAD.name));
}

/** ensureRequestWorkload loads the bundled workload unless a workload is loaded, loading or failed. */
function ensureRequestWorkload(): void {
  if (!wiring) return;
  if (wiring.store.getState().requestStatus.state === 'idle') loadBundledWorkload();
}

/** offerWorkloadFile reads a workload file the user picked (lat,lng,radius[,timestamp][,weight] per line) and makes it the workload. */
export function offerWorkloadFile(file: File): Promise<void> {
  wiring?.store.getState().wantRequestCells();
  return load(file.name, () => file.text());
}

/**
 * startRequests wires the workload into the page while the store holds a workload client (the
 * review worker's: review/reviewDriver.ts puts it there); returns a function that unwires it.
 */
export function startRequests(store: AppStore): () => void {
  let stop: (() => void) | null = null;
  const follow = (client: WorkloadClient | null) => {
    stop?.();
    stop = client ? wire(store, client) : null;
  };
  const unfollow = store.subscribe((s) => s.workloadClient, follow);
  follow(store.getState().workloadClient);
  return () => {
    unfollow();
    stop?.();
    stop = null;
  };
}

/** wire runs the workload with one client: the layer's and the review's wishes, the hot ranges of the current file. */
function wire(store: AppStore, client: WorkloadClient): () => void {
  wiring = { store, client };
  const mine = wiring;
  type Inputs = Pick<AppState, 'data' | 'reviewCells' | 'requestWorkload'>;
  const inputsOf = (s: AppState): Inputs => ({ data: s.data, reviewCells: s.reviewCells, requestWorkload: s.requestWorkload });
  const update = (s: AppState) => {
    const data = readyData(s);
    const w = s.requestWorkload;
    if (!data || !s.reviewCells || !w) return;
    const hash = data.file.hash;
    client
      .hotspots(data.file, HOT_FACTOR)
      .then((h) => {
        const now = store.getState();
        if (wiring !== mine || readyData(now)?.file.hash !== hash || now.requestWorkload !== w) return;
        now.setRequestHotspots(h);
        document.body.dataset.requests = `${w.source} ${hash}`;
      })
      .catch((e: Error) => wiring === mine && store.getState().setRequestError(w.source, `hot ranges not computed: ${e.message}`));
  };
  const unsubscribe = store.subscribe(inputsOf, () => update(store.getState()), { equalityFn: shallow });
  // The layer wants a workload while it is on; the review's panel asks with wantRequestWorkload.
  if (store.getState().layers.requests) store.getState().wantRequestWorkload();
  const unsubscribeLayer = store.subscribe(
    (s) => s.layers.requests,
    (on) => on && store.getState().wantRequestWorkload(),
  );
  if (store.getState().requestWanted) ensureRequestWorkload();
  const unsubscribeWanted = store.subscribe(
    (s) => s.requestWanted,
    (wanted) => wanted && ensureRequestWorkload(),
  );
  // A workload another view offers as text (the Traffic view's window): loaded like a picked file.
  const offered = (o: AppState['requestOffer']) => o && void load(o.source, async () => o.text);
  const pending = store.getState().requestOffer;
  if (pending && store.getState().requestStatus.state === 'loading' && store.getState().requestStatus.source === pending.source) offered(pending);
  const unsubscribeOffer = store.subscribe((s) => s.requestOffer, offered);
  update(store.getState());
  return () => {
    unsubscribe();
    unsubscribeLayer();
    unsubscribeWanted();
    unsubscribeOffer();
    if (wiring === mine) wiring = null;
    generation++;
    delete document.body.dataset.requests;
  };
}
