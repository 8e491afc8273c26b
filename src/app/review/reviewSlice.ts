/**
 * Boundary review (issue 6): a candidate boundary file beside the current
 * one, its edits, and what the candidate changes (the diff, computed by the
 * core, and the expected fan-out of both files, computed in a worker).
 *
 * State transitions live here and are unit-tested (reviewSlice.test.ts).
 * review/reviewDriver.ts loads the cells with restaurants and dishes apart,
 * opens `?candidate=`, accepts dropped files, recomputes `reviewDiff` when
 * the current file, the candidate, the cells or the matching change (at most
 * once per frame while a boundary is dragged: the ribbon applies drags in an
 * animation frame) and asks the worker for fan-out.
 *
 * Panels select narrowly:
 *   useApp(s => s.candidate)       the candidate, or null
 *   useApp(s => s.reviewDiff)      the core's BoundaryDiff of current → candidate, or null
 */
import type { SliceCreator } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { ShardTable, type BoundaryDiff, type BoundaryFile, type CellWeight, type ShardMatch } from '../../core/index';
import { CellSums } from '../../core/cellSums';
import { readCandidate, withStarts, nudgeBoundary, childOf } from './review';
import type { FanoutAnswer, LoadDiffAnswer } from './reviewWorker';

/** A fan-out answer and the hash of the file it is for. */
export type ReviewFanout = FanoutAnswer & { hash: string };

/** A split or merge applied to the candidate, and what it costs in words. */
export interface ReviewEdit {
  kind: 'split' | 'merge';
  /** What was done, e.g. 'split "tango" at 89c2a1 into "tango" (3.1M documents) and "kilo" (3.0M)'. */
  summary: string;
  /** The core's statement of what shipping it means (a new index and a reindex). */
  consequence: string;
  /** Old names that had to change because their hash collides under the new shard count. */
  renamed: { from: string; to: string }[];
}

/** The candidate boundary file under review. */
export interface ReviewCandidate {
  file: BoundaryFile;
  router: ShardTable;
  /** Where it came from: a file name, a URL, "split of …", "copy of …". */
  source: string;
  /** The file as loaded or as the last split/merge made it: what "revert" returns to. */
  base: BoundaryFile;
  /** Boundary moves (drags and nudges applied) since `base`. */
  moves: number;
  /** The last split or merge, or null. */
  edit: ReviewEdit | null;
}

export interface ReviewSlice {
  /** The cells with restaurants and dishes apart (the review worker parses data/cells.csv), or null until loaded. */
  reviewCells: CellWeight[] | null;
  /** Prefix sums over reviewCells. */
  reviewSums: CellSums | null;
  candidate: ReviewCandidate | null;
  /** Why the last candidate offered was refused: a title and every problem, each naming field and value. */
  candidateError: { title: string; problems: string[] } | null;
  /** How owners are matched between the files: by shard name (what moves in OpenSearch) or by range overlap. */
  reviewMatch: ShardMatch;
  /** diffBoundaries(current, candidate, cells); null without a candidate, cells or current file. */
  reviewDiff: BoundaryDiff | null;
  /**
   * Expected fan-out of each file over the review workload (reviewWorker.ts),
   * with the hash of the file it is for: while a newer file is computed the
   * previous answer stays (the panel marks it as updating); null before the first.
   */
  reviewFanout: { current: ReviewFanout | null; candidate: ReviewFanout | null; error: string | null };
  /**
   * Load per shard, hottest shards and fan-out of both files over the request
   * workload (requests/requestsSlice.ts; the core's loadDiff in the review
   * worker), with the hashes and the workload source it is for; the previous
   * answer stays while a newer one is computed. null before the first.
   */
  reviewLoad: (LoadDiffAnswer & { source: string }) | null;
  /** Why the load figures could not be computed, or null. */
  reviewLoadError: string | null;
  /** The candidate boundary selected for nudging (1..N−1), or −1. */
  selectedBoundary: number;
  /** Problems that stopped the last save (the validator's messages); empty otherwise. */
  reviewSaveProblems: string[];
  /** A message about the last edit that could not be made (e.g. a split of a one-cell shard), or null. */
  reviewNotice: string | null;

  setReviewCells: (cells: CellWeight[]) => void;
  /** Validates a candidate's text with the core; sets it, or candidateError with every problem. Returns whether it was accepted. */
  loadCandidateText: (text: string, source: string) => boolean;
  setCandidateError: (title: string, problems: string[]) => void;
  clearCandidate: () => void;
  /** Starts editing a copy of the current file (a child of it, nothing moved yet). */
  editCurrent: () => void;
  /** Puts candidate boundary i (1..N−1) at a start ordinal strictly between its neighbours. */
  moveBoundary: (i: number, ordinal: number) => void;
  /** Moves the selected boundary by `steps` non-empty cells (see review/review.ts nudgeBoundary). */
  nudgeSelected: (steps: number) => void;
  selectBoundary: (i: number) => void;
  /**
   * Splits a candidate shard (or a current one, without a candidate) at its weighted median.
   * The core's editor loads on first use (it is not on the first screen): the promise settles
   * when the edit (or its notice) is in the store.
   */
  splitReviewShard: (name: string) => Promise<void>;
  /** Merges two neighbouring shards of the candidate (or of the current file); settles as splitReviewShard. */
  mergeReviewShards: (a: string, b: string) => Promise<void>;
  /** Returns the candidate to its base (drops the hand edits). */
  revertCandidate: () => void;
  setReviewMatch: (m: ShardMatch) => void;
  /** Written by the driver. */
  setReviewDiff: (d: BoundaryDiff | null) => void;
  setReviewFanout: (side: 'current' | 'candidate', a: ReviewFanout | null, error?: string | null) => void;
  /** Written by the driver. */
  setReviewLoad: (a: ReviewSlice['reviewLoad'], error?: string | null) => void;
  /**
   * The candidate as it would be saved: a child of the current file (version
   * + 1, parent = current hash, counts recomputed, new hash). Returns the file
   * when it passes validation, else null with reviewSaveProblems set.
   */
  prepareSave: (createdAt?: string) => BoundaryFile | null;
}

declare module '../shell/types' {
  interface AppState extends ReviewSlice {}
}

const fmtDocs = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get) => {
  /** The file edits start from: the candidate, or the current file. */
  const editBase = (): BoundaryFile | null => get().candidate?.file ?? readyData(get())?.file ?? null;
  const setCandidate = (file: BoundaryFile, source: string, edit: ReviewEdit | null) =>
    set({ candidate: { file, router: new ShardTable(file, source), source, base: file, moves: 0, edit }, candidateError: null, selectedBoundary: -1, reviewSaveProblems: [], reviewNotice: null });
  /** Runs an edit, turning its RangeError into a notice. */
  const attempt = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (e) {
      set({ reviewNotice: `${what}: ${(e as Error).message}` });
    }
  };
  /**
   * Runs a split or merge with the core's editor (core/edit.ts), loaded on first use so that it
   * stays off the first screen; a failed load becomes a notice like a refused edit.
   */
  const editor = (what: string, fn: (edit: typeof import('../../core/edit')) => void): Promise<void> =>
    import('../../core/edit').then(
      (edit) => attempt(what, () => fn(edit)),
      (e: Error) => set({ reviewNotice: `${what}: the editor did not load (${e.message})` }),
    );
  /** A split/merge result made a child of the current file. */
  const adopt = (file: BoundaryFile, source: string, edit: ReviewEdit) => {
    const current = readyData(get())?.file;
    const sums = get().reviewSums;
    if (!current || !sums) return setCandidate(file, source, edit);
    const child = childOf(current, file, sums, file.createdAt, file.balance ?? {});
    setCandidate(child.problems.length === 0 ? child.file : file, source, edit);
  };

  return {
    reviewCells: null,
    reviewSums: null,
    candidate: null,
    candidateError: null,
    reviewMatch: 'name',
    reviewDiff: null,
    reviewFanout: { current: null, candidate: null, error: null },
    reviewLoad: null,
    reviewLoadError: null,
    selectedBoundary: -1,
    reviewSaveProblems: [],
    reviewNotice: null,

    setReviewCells: (cells) => set({ reviewCells: cells, reviewSums: new CellSums(cells) }),
    loadCandidateText: (text, source) => {
      const r = readCandidate(text, source);
      if (!r.ok) {
        set({ candidateError: { title: r.title, problems: r.problems } });
        return false;
      }
      setCandidate(r.file, source, null);
      return true;
    },
    setCandidateError: (title, problems) => set({ candidateError: { title, problems } }),
    clearCandidate: () => set({ candidate: null, candidateError: null, reviewDiff: null, selectedBoundary: -1, reviewSaveProblems: [], reviewNotice: null, reviewFanout: { ...get().reviewFanout, candidate: null, error: null } }),
    editCurrent: () => {
      const data = readyData(get());
      const sums = get().reviewSums;
      if (!data || !sums) return;
      attempt('copy of the current file', () => {
        const child = childOf(data.file, data.file, sums, new Date().toISOString(), { method: 'hand edit in the explorer', from: data.file.hash });
        if (child.problems.length > 0) throw new RangeError(child.problems.join('; '));
        setCandidate(child.file, `copy of ${data.source}`, null);
      });
    },
    moveBoundary: (i, ordinal) => {
      const c = get().candidate;
      const sums = get().reviewSums;
      if (!c || !sums) return;
      const starts = Array.from(c.router.starts);
      if (!(i >= 1 && i < starts.length - 1) || starts[i] === ordinal) return;
      if (!(ordinal > starts[i - 1] && ordinal < starts[i + 1])) return;
      attempt('move boundary', () => {
        starts[i] = ordinal;
        const file = withStarts(c.file, starts, sums);
        set({ candidate: { ...c, file, router: new ShardTable(file, c.source), moves: c.moves + 1 }, reviewSaveProblems: [], reviewNotice: null });
      });
    },
    nudgeSelected: (steps) => {
      const { candidate: c, reviewSums: sums, selectedBoundary: i } = get();
      if (!c || !sums || i < 1 || i >= c.file.numberOfShards) return;
      get().moveBoundary(i, nudgeBoundary(sums.ordinals, c.router.starts, i, steps));
    },
    selectBoundary: (i) => {
      if (get().selectedBoundary !== i) set({ selectedBoundary: i });
    },
    splitReviewShard: (name) =>
      editor(`split "${name}"`, ({ splitShard }) => {
        const base = editBase();
        const cells = get().reviewCells;
        if (!base || !cells) return;
        const r = splitShard(base, cells, name);
        const docs = (h: { restaurants: number; dishes: number }) => fmtDocs(h.restaurants + h.dishes);
        adopt(r.file, `split of "${name}"`, {
          kind: 'split',
          summary: `split "${name}" at its weighted median, cell ${r.at}: "${r.left.name}" (${docs(r.left)} documents) | "${r.right.name}" (${docs(r.right)}); ${r.shardsBefore} → ${r.shardsAfter} shards`,
          consequence: r.consequence,
          renamed: r.renamed,
        });
      }),
    mergeReviewShards: (a, b) =>
      editor(`merge "${a}" and "${b}"`, ({ mergeShards }) => {
        const base = editBase();
        const cells = get().reviewCells;
        if (!base || !cells) return;
        const r = mergeShards(base, cells, a, b);
        adopt(r.file, `merge of "${a}" and "${b}"`, {
          kind: 'merge',
          summary: `merged "${a}" and "${b}" into "${r.name}" (${fmtDocs(r.restaurants + r.dishes)} documents), boundary ${r.removed} removed; ${r.shardsBefore} → ${r.shardsAfter} shards`,
          consequence: r.consequence,
          renamed: r.renamed,
        });
      }),
    revertCandidate: () => {
      const c = get().candidate;
      if (!c || c.moves === 0) return;
      set({ candidate: { ...c, file: c.base, router: new ShardTable(c.base, c.source), moves: 0 }, reviewSaveProblems: [], reviewNotice: null });
    },
    setReviewMatch: (m) => {
      if (get().reviewMatch !== m) set({ reviewMatch: m });
    },
    setReviewDiff: (d) => set({ reviewDiff: d }),
    setReviewFanout: (side, a, error = null) => set({ reviewFanout: { ...get().reviewFanout, [side]: a, error } }),
    setReviewLoad: (a, error = null) => set({ reviewLoad: a, reviewLoadError: error }),
    prepareSave: (createdAt = new Date().toISOString()) => {
      const c = get().candidate;
      const data = readyData(get());
      const sums = get().reviewSums;
      if (!c || !data || !sums) {
        set({ reviewSaveProblems: ['nothing to save: load or edit a candidate first (and wait for the cell weights)'] });
        return null;
      }
      // Hand-moved boundaries make the balancer's figures stale: record the edit instead, with what it started from.
      const note = c.moves > 0 ? { method: 'hand edit in the explorer', from: c.source, base: c.base.hash, boundaryMoves: c.moves, ...(c.base.balance ? { baseBalance: c.base.balance } : {}) } : (c.file.balance ?? { method: 'reviewed in the explorer', from: c.source });
      const { file, problems } = childOf(data.file, c.file, sums, createdAt, note);
      set({ reviewSaveProblems: problems });
      return problems.length === 0 ? file : null;
    },
  };
};
