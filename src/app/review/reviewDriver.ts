/**
 * The boundary review's wiring in the page (the DOM half of
 * review/reviewSlice.ts): loads the cells with restaurants and dishes apart
 * through the review worker once review is used, opens `?candidate=<url>`,
 * accepts a boundary file dropped anywhere on the page, recomputes the diff
 * when the current file, the candidate, the cells or the matching change,
 * and asks the worker for the fan-out of both files.
 *
 * The diff runs on the main thread (1.5 to 8 ms on the bundled 21,905 cells,
 * Node 20): the ribbon applies a dragged boundary at most once per animation
 * frame, so the diff runs at most once per frame too. Fan-out runs in the
 * worker (reviewWorker.ts), latest wish only.
 *
 * It also puts the worker's client in the store (workloadClient), for the
 * request workload's driver (requests/requestsDriver.ts), loads the cells when
 * that workload needs them (requestCellsWanted), and asks the worker for the load before/after of
 * the candidate over that workload (latest wish only) once a candidate, the
 * cells and a workload are there; a candidate asks for the bundled workload.
 *
 * Test hooks on <body>: data-review-diff = the candidate hash the shown diff
 * is for; data-review-fanout = the candidate hash the shown fan-out is for;
 * data-review-load = the candidate hash the shown load figures are for.
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/store';
import type { AppStore } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { computeReviewDiff } from './reviewDiff';
import { createReviewClient, type ReviewClient } from './reviewWorker';
import { loadCells } from '../globe/geometryWorker';
import { candidateUrl } from '../shell/url';
import { DATA_URLS, fetchText, DataLoadError } from '../shell/loadData';
import { listen } from '../shell/listen';

let client: ReviewClient | null = null;
let store: AppStore | null = null;
let cellsRequested = false;

/** showReviewTab brings the side panel's review tab forward (the panel owns its tab state). */
export function showReviewTab(): void {
  const tab = document.getElementById('tab-review');
  if (tab && tab.getAttribute('aria-selected') !== 'true') tab.click();
}

/**
 * requestReviewCells starts loading the review's cells (once): the driver calls it when the
 * Review tab is open (by a click or by a link: `?tab=review`) or a candidate is shown.
 */
export function requestReviewCells(): void {
  if (!client || !store || cellsRequested) return;
  const url = DATA_URLS.cells;
  const st = store;
  if (!url) {
    st.getState().setReviewFanout('current', null, 'data/cells.csv is missing: moved documents, evenness and fan-out need the cell weights');
    return;
  }
  cellsRequested = true;
  const c = client;
  loadCells(url)
    .then((columns) => c.cells(columns))
    .then((cells) => st.getState().setReviewCells(cells))
    .catch((e: Error) => {
      cellsRequested = false;
      st.getState().setReviewFanout('current', null, `cell weights not loaded: ${e.message}`);
    });
}

/** offerCandidateText validates and shows a candidate (from the picker, a drop or a URL) and brings the review tab forward. */
export function offerCandidateText(text: string, source: string): boolean {
  if (!store) return false;
  const ok = store.getState().loadCandidateText(text, source);
  requestReviewCells();
  showReviewTab();
  return ok;
}

/** offerCandidateFile reads a File (picker or drop) and offers it. */
export async function offerCandidateFile(file: File): Promise<boolean> {
  let text: string;
  try {
    text = await file.text();
  } catch (e) {
    store?.getState().setCandidateError(`${file.name} cannot be read`, [(e as Error).message]);
    showReviewTab();
    return false;
  }
  return offerCandidateText(text, file.name);
}

async function openUrlCandidate(st: AppStore): Promise<void> {
  let url: string | null;
  try {
    url = candidateUrl(location.search);
  } catch (e) {
    st.getState().setCandidateError('Cannot open the candidate boundary file', [(e as Error).message]);
    showReviewTab();
    return;
  }
  if (url === null) return;
  try {
    const text = await fetchText(url, 'the candidate boundary file');
    offerCandidateText(text, url);
  } catch (e) {
    const err = e instanceof DataLoadError ? e : new DataLoadError('Cannot load the candidate boundary file', [(e as Error).message]);
    st.getState().setCandidateError(err.title, err.problems);
    showReviewTab();
  }
}

function installDrop(): () => void {
  const hasFiles = (e: DragEvent) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
  let depth = 0;
  const over = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  };
  const enter = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    depth++;
    document.body.dataset.reviewDrop = 'true';
  };
  const leave = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) delete document.body.dataset.reviewDrop;
  };
  const drop = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    delete document.body.dataset.reviewDrop;
    const file = e.dataTransfer?.files[0];
    if (file) void offerCandidateFile(file);
  };
  return listen(window, { dragover: over, dragenter: enter, dragleave: leave, drop });
}

/**
 * startReview wires the review into the page; returns a function that
 * unwires it. Idempotent while started (React's StrictMode mounts twice).
 */
export function startReview(st: AppStore): () => void {
  if (store) return () => {};
  store = st;
  client = createReviewClient(() => new Worker(new URL('./review.worker.ts', import.meta.url), { type: 'module' }));
  const c = client;
  const uninstallDrop = installDrop();

  const fanoutFor = (side: 'current' | 'candidate', hash: string, file: Parameters<ReviewClient['fanout']>[0]) => {
    const isWanted = () => {
      const s = st.getState();
      return side === 'current' ? readyData(s)?.file.hash === hash : s.candidate?.file.hash === hash;
    };
    c.fanout(file)
      .then((a) => {
        if (!a || !isWanted()) return;
        st.getState().setReviewFanout(side, { ...a, hash });
        if (side === 'candidate') document.body.dataset.reviewFanout = hash;
      })
      .catch((e: Error) => isWanted() && st.getState().setReviewFanout(side, st.getState().reviewFanout[side], `fan-out not computed: ${e.message}`));
  };

  const loadFor = (s: AppState) => {
    const data = readyData(s);
    const w = s.requestWorkload;
    if (!data || !s.candidate || !s.reviewCells || !w) return;
    const [cur, cand] = [data.file.hash, s.candidate.file.hash];
    const wanted = (now: AppState) => readyData(now)?.file.hash === cur && now.candidate?.file.hash === cand && now.requestWorkload === w;
    c.loadDiff(data.file, s.candidate.file)
      .then((a) => {
        if (!a || !wanted(st.getState())) return;
        st.getState().setReviewLoad({ ...a, source: w.source });
        document.body.dataset.reviewLoad = cand;
      })
      .catch((e: Error) => wanted(st.getState()) && st.getState().setReviewLoad(st.getState().reviewLoad, `load over the workload not computed: ${e.message}`));
  };

  type Inputs = Pick<AppState, 'data' | 'candidate' | 'reviewCells' | 'reviewMatch' | 'requestWorkload' | 'tab' | 'requestCellsWanted'>;
  const inputsOf = (s: AppState): Inputs => ({
    data: s.data,
    candidate: s.candidate,
    reviewCells: s.reviewCells,
    reviewMatch: s.reviewMatch,
    requestWorkload: s.requestWorkload,
    tab: s.tab,
    requestCellsWanted: s.requestCellsWanted,
  });
  const update = (s: AppState, p: Inputs | null) => {
    // The cells are asked for from the state, not from the panel's first render: a link that
    // opens the Review tab (`?tab=review`) shows the panel before this driver starts (after the
    // first frame), and the panel would have asked a driver that was not there yet.
    if ((s.candidate || s.tab === 'review' || s.requestCellsWanted) && !s.reviewCells) requestReviewCells();
    if (s.candidate) st.getState().wantRequestWorkload();
    if (s.candidate && (!p || s.data !== p.data || s.candidate.file !== p.candidate?.file || s.reviewCells !== p.reviewCells || s.requestWorkload !== p.requestWorkload)) loadFor(s);
    const data = readyData(s);
    const inputs = !p || s.data !== p.data || s.candidate !== p.candidate || s.reviewCells !== p.reviewCells || s.reviewMatch !== p.reviewMatch;
    if (!inputs) return;
    let diff = null;
    try {
      diff = computeReviewDiff(s);
    } catch (e) {
      st.getState().setCandidateError('The candidate cannot be compared with the current file', [(e as Error).message]);
    }
    if (diff !== s.reviewDiff) st.getState().setReviewDiff(diff);
    if (diff && s.candidate) document.body.dataset.reviewDiff = s.candidate.file.hash;
    else delete document.body.dataset.reviewDiff;
    if (!s.reviewCells) return;
    if (data && (!p || s.data !== p.data || s.reviewCells !== p.reviewCells) && s.reviewFanout.current?.hash !== data.file.hash) fanoutFor('current', data.file.hash, data.file);
    if (s.candidate && (!p || s.candidate.file !== p.candidate?.file || s.reviewCells !== p.reviewCells)) {
      const hash = s.candidate.file.hash;
      const hit = c.cached(hash);
      if (hit) {
        st.getState().setReviewFanout('candidate', { ...hit, hash });
        document.body.dataset.reviewFanout = hash;
      } else fanoutFor('candidate', hash, s.candidate.file);
    }
  };
  st.getState().setWorkloadClient(c);
  const unsubscribe = st.subscribe(inputsOf, (_, p) => update(st.getState(), p), { equalityFn: shallow });
  update(st.getState(), null);
  void openUrlCandidate(st);

  return () => {
    unsubscribe();
    st.getState().setWorkloadClient(null);
    uninstallDrop();
    c.dispose();
    client = null;
    store = null;
    cellsRequested = false;
  };
}
