/**
 * Work that survives a reload: the candidate under review and its unsaved
 * boundary edits are kept in this browser's localStorage (a boundary file is
 * too big for a link), and leaving the page with unsaved edits asks first.
 *
 * - A candidate opened with the picker, dropped, or started as a copy of the
 *   current file is reopened by `?review=local` (shellState.ts writes it).
 * - A candidate opened by `?candidate=URL` is loaded from the URL again; its
 *   edits, if any, are put back on top.
 *
 * What is kept: the candidate's base file (as loaded, or as the last split
 * or merge made it), the edited file, the number of hand moves and the last
 * split/merge. Both files are checked by the core again when they come back.
 */
import { formatBoundaryFile, ShardTable } from '../../core/index';
import type { AppState } from './store';
import type { AppStore } from './types';
import { readCandidate } from '../review/review';
import type { ReviewEdit } from '../review/reviewSlice';

/** The localStorage key of the kept candidate. */
export const KEEP_KEY = 'geoshard.review.candidate';

/** A kept candidate, as stored. */
export interface KeptCandidate {
  /** The `?candidate=` URL it came from, or null when it came from this browser (picker, drop, copy). */
  url: string | null;
  source: string;
  /** The base file's text (what "revert" returns to). */
  base: string;
  /** The edited file's text (equal to base when nothing was moved). */
  file: string;
  moves: number;
  edit: ReviewEdit | null;
}

/** The candidate's origin while the page runs: the `?candidate=` URL, or null for one from this browser. */
let origin: string | null = null;
let hasCandidate = false;

/** keptCandidateIsLocal tells whether the candidate shown comes from this browser (so the link says review=local). */
export function keptCandidateIsLocal(s: AppState): boolean {
  return s.candidate !== null && hasCandidate && origin === null;
}

/** hasUnsavedEdits tells whether the candidate carries edits not in any file: hand moves, or a split/merge. */
export function hasUnsavedEdits(s: AppState): boolean {
  return !!s.candidate && (s.candidate.moves > 0 || s.candidate.edit !== null);
}

/** readKept returns the kept candidate, or null (none, storage unavailable, or unreadable). */
export function readKept(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): KeptCandidate | null {
  try {
    const raw = storage?.getItem(KEEP_KEY);
    if (!raw) return null;
    const k = JSON.parse(raw) as KeptCandidate;
    return typeof k.base === 'string' && typeof k.file === 'string' && typeof k.source === 'string' ? k : null;
  } catch {
    return null;
  }
}

/**
 * restoreKept puts a kept candidate back into the store, both files checked by
 * the core; returns a problem message when it cannot (then nothing changes).
 */
export function restoreKept(store: AppStore, k: KeptCandidate): string | null {
  const base = readCandidate(k.base, k.source);
  if (!base.ok) return `the candidate kept in this browser is no longer valid: ${base.problems[0] ?? base.title}`;
  const file = k.file === k.base ? base : readCandidate(k.file, k.source);
  if (!file.ok) return `the edits kept in this browser are no longer valid: ${file.problems[0] ?? file.title}`;
  origin = k.url;
  hasCandidate = true;
  store.setState({
    candidate: { file: file.file, router: new ShardTable(file.file, k.source), source: k.source, base: base.file, moves: k.moves, edit: k.edit },
    candidateError: null,
    selectedBoundary: -1,
    reviewSaveProblems: [],
    reviewNotice: k.moves > 0 || k.edit ? 'restored the unsaved edits kept in this browser' : null,
  });
  return null;
}

const DERIVED = /^(split of |merge of )/;

/**
 * startKeeping keeps the store's candidate in localStorage (at most every
 * 400 ms, and when the page is hidden), brings back a kept one (for
 * `review=local`, or the edits of the `?candidate=` URL `urlCandidate` once
 * it has loaded) and warns before leaving with unsaved edits. Returns a
 * problem for the link's notice when review=local finds nothing, and a stop
 * function.
 */
export function startKeeping(store: AppStore, opts: { reviewLocal: boolean; urlCandidate: string | null }): { problem: string | null; stop: () => void } {
  let problem: string | null = null;
  const kept = readKept();
  let pendingUrlEdits = opts.urlCandidate !== null && kept?.url === opts.urlCandidate && kept.file !== kept.base ? kept : null;
  if (opts.reviewLocal && opts.urlCandidate === null) {
    if (!kept) problem = 'review=local is ignored: no candidate is kept in this browser (open one with the Review tab\'s picker)';
    else {
      problem = restoreKept(store, kept);
      if (!problem) store.getState().setTab('review');
    }
  }

  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    const c = store.getState().candidate;
    try {
      if (!c) return localStorage.removeItem(KEEP_KEY);
      const base = formatBoundaryFile(c.base);
      const k: KeptCandidate = { url: origin, source: c.source, base, file: c.file === c.base ? base : formatBoundaryFile(c.file), moves: c.moves, edit: c.edit };
      localStorage.setItem(KEEP_KEY, JSON.stringify(k));
    } catch (e) {
      console.warn(`geoshard: the candidate is not kept in this browser: ${(e as Error).message}`);
    }
  };
  const unsub = store.subscribe(
    (s) => s.candidate,
    (c, prev) => {
      if (c && c.source !== prev?.source && !DERIVED.test(c.source)) origin = c.source === opts.urlCandidate ? opts.urlCandidate : null;
      hasCandidate = c !== null;
      if (c && pendingUrlEdits && c.source === opts.urlCandidate) {
        const k = pendingUrlEdits;
        pendingUrlEdits = null;
        const why = restoreKept(store, k);
        if (why) store.getState().setUrlProblems([...store.getState().urlProblems, why]);
        return;
      }
      if (!timer) timer = setTimeout(save, 400);
    },
  );
  const onHide = () => {
    if (timer) {
      clearTimeout(timer);
      save();
    }
  };
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    onHide();
    if (!hasUnsavedEdits(store.getState())) return;
    // The edits are kept, but a person closing the tab may not know: ask.
    e.preventDefault();
    e.returnValue = '';
  };
  addEventListener('pagehide', onHide);
  addEventListener('beforeunload', onBeforeUnload);
  return {
    problem,
    stop: () => {
      unsub();
      onHide();
      removeEventListener('pagehide', onHide);
      removeEventListener('beforeunload', onBeforeUnload);
    },
  };
}
