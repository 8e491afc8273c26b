import { describe, it, expect } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { AppState } from '../shell/types';
import { createDataSlice } from '../shell/dataSlice';
import { createReviewSlice } from './reviewSlice';
import { computeReviewDiff } from './reviewDiff';
import { Router, validateBoundaryFile, formatBoundaryFile, cellFromOrdinal, cellToken, type CellWeight } from '../../core/index';
import { fileWithCuts } from '../../core/testutil';
import { computeHash } from '../../core/boundaries';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: tok(ordinal), ordinal, restaurants, dishes });
// Shards [0,100) [100,200) [200,end); non-empty cells at 50, 120, 160, 180, 250 (documents 11, 22, 33, 5, 44; 115 in all).
const cells = [cell(50, 1, 10), cell(120, 2, 20), cell(160, 3, 30), cell(180, 1, 4), cell(250, 4, 40)];
const current = fileWithCuts([100, 200]);
const names = current.shards.map((s) => s.name);

/** A store with the data and review slices, the current file and the cells loaded. */
function store() {
  const st = createStore<AppState>()((...a) => Object.assign({}, createDataSlice(...a), createReviewSlice(...a)) as AppState);
  st.getState().setBoundaries(current, new Router(current), 'current.json');
  st.getState().setReviewCells(cells);
  return st;
}
const diffOf = (st: ReturnType<typeof store>) => computeReviewDiff(st.getState())!;

describe('review slice', () => {
  it('accepts a valid candidate and diffs it against the current file', () => {
    const st = store();
    expect(st.getState().loadCandidateText(formatBoundaryFile(fileWithCuts([150, 200])), 'c.json')).toBe(true);
    expect(st.getState().candidate!.source).toBe('c.json');
    // Cell 120 (22 documents) moves from shard 1 to shard 0.
    expect(diffOf(st).totals).toMatchObject({ documents: 22, share: 22 / 115 });
  });

  it('refuses an invalid candidate with every problem and keeps the previous one', () => {
    const st = store();
    st.getState().loadCandidateText(formatBoundaryFile(fileWithCuts([150, 200])), 'good.json');
    const bad = { ...fileWithCuts([150, 200]), boundaries: ['4', 'x'] };
    expect(st.getState().loadCandidateText(JSON.stringify(bad), 'bad.json')).toBe(false);
    const err = st.getState().candidateError!;
    expect(err.title).toBe('bad.json is not a valid boundary file');
    expect(err.problems.filter((p) => p.startsWith('boundaries['))).toHaveLength(2);
    expect(st.getState().candidate!.source).toBe('good.json');
  });

  it('edits a copy of the current file: nothing moves until a boundary does', () => {
    const st = store();
    st.getState().editCurrent();
    const c = st.getState().candidate!;
    expect(c.file.parent).toBe(current.hash);
    expect(c.file.version).toBe(current.version + 1);
    expect(diffOf(st).moves).toEqual([]);
    st.getState().moveBoundary(1, 160);
    expect(st.getState().candidate!.moves).toBe(1);
    // Cells 120 (22) moves to shard 0: evenness changes from [11, 60, 44] to [33, 38, 44].
    const d = diffOf(st);
    expect(d.totals.documents).toBe(22);
    expect(d.evenness.before.heaviest).toBe(60);
    expect(d.evenness.after.heaviest).toBe(44);
  });

  it('ignores a move that would empty a range or leave the boundary where it is', () => {
    const st = store();
    st.getState().editCurrent();
    const before = st.getState().candidate;
    st.getState().moveBoundary(1, 200);
    st.getState().moveBoundary(1, 0);
    st.getState().moveBoundary(1, 100);
    st.getState().moveBoundary(3, 120);
    expect(st.getState().candidate).toBe(before);
  });

  it('nudges the selected boundary one non-empty cell at a time, and reverts to the base', () => {
    const st = store();
    st.getState().editCurrent();
    st.getState().selectBoundary(2);
    st.getState().nudgeSelected(-1);
    expect(st.getState().candidate!.router.starts[2]).toBe(180);
    st.getState().nudgeSelected(-1);
    expect(st.getState().candidate!.router.starts[2]).toBe(160);
    st.getState().nudgeSelected(-5); // cell 120 must stay with shard 1
    expect(st.getState().candidate!.router.starts[2]).toBe(160);
    expect(st.getState().candidate!.moves).toBe(2);
    st.getState().revertCandidate();
    expect(st.getState().candidate!.router.starts[2]).toBe(200);
  });

  it('splits a shard at its weighted median as a child of the current file, and says it means a reindex', async () => {
    const st = store();
    await st.getState().splitReviewShard(names[1]);
    const c = st.getState().candidate!;
    expect(c.file.numberOfShards).toBe(4);
    expect(c.file.parent).toBe(current.hash);
    expect(validateBoundaryFile(c.file)).toEqual([]);
    // Shard 1 holds 22, 33, 5: the cut before 160 leaves 22 | 38, before 180 leaves 55 | 5; 22 | 38 is better.
    expect(c.file.boundaries).toContain(tok(160));
    expect(c.edit!.kind).toBe('split');
    expect(c.edit!.consequence).toMatch(/numberOfShards changes 3 → 4/);
    expect(diffOf(st).reindex).toMatch(/numberOfShards changes \(3 → 4\)/);
  });

  it('merges two neighbours, and reports a merge of non-neighbours as a notice', async () => {
    const st = store();
    await st.getState().mergeReviewShards(names[0], names[2]);
    expect(st.getState().candidate).toBeNull();
    expect(st.getState().reviewNotice).toMatch(/are not neighbours/);
    await st.getState().mergeReviewShards(names[0], names[1]);
    expect(st.getState().candidate!.file.numberOfShards).toBe(2);
    expect(st.getState().reviewNotice).toBeNull();
  });

  it('saves a hand-edited candidate as the next version of the current file with a valid new hash', () => {
    const st = store();
    st.getState().loadCandidateText(formatBoundaryFile(fileWithCuts([150, 200])), 'c.json');
    st.getState().moveBoundary(2, 180);
    const saved = st.getState().prepareSave('2026-12-01T00:00:00.000Z')!;
    expect(validateBoundaryFile(saved)).toEqual([]);
    expect(saved.parent).toBe(current.hash);
    expect(saved.version).toBe(current.version + 1);
    expect(saved.hash).toBe(computeHash(saved));
    expect(saved.boundaries).toEqual([tok(150), tok(180)]);
    expect(saved.balance).toMatchObject({ method: 'hand edit in the explorer', boundaryMoves: 1 });
    expect(st.getState().reviewSaveProblems).toEqual([]);
  });

  it('has no diff without a candidate', () => {
    const st = store();
    expect(computeReviewDiff(st.getState())).toBeNull();
    st.getState().loadCandidateText(formatBoundaryFile(fileWithCuts([150, 200])), 'c.json');
    st.getState().clearCandidate();
    expect(computeReviewDiff(st.getState())).toBeNull();
  });
});
