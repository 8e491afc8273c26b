/**
 * ReviewEditor: editing the candidate. Move a boundary cell by cell (buttons,
 * or ← / → with the boundary list or the review ribbon focused; Shift for 10
 * cells; dragging a tick on the review ribbon does the same), split a hot
 * shard at its weighted median, merge two neighbours, revert, and save the
 * result as the next version of the current file once it passes validation.
 */
import { useMemo, useState } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { formatBoundaryFile, type BoundaryFile } from '../../core/index';
import { savedFileName } from './review';
import { formatCompact } from '../shell/format';
import type { AppStore } from '../shell/types';

/** download hands a file to the browser as a download. */
function download(file: BoundaryFile) {
  const blob = new Blob([formatBoundaryFile(file)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = savedFileName(file);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** nudgeKeys moves the selected boundary with ← / → (Shift: 10 cells). */
export function nudgeKeys(appStore: AppStore, e: React.KeyboardEvent | KeyboardEvent): boolean {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return false;
  if (appStore.getState().selectedBoundary < 1) return false;
  e.preventDefault();
  appStore.getState().nudgeSelected((e.key === 'ArrowRight' ? 1 : -1) * (e.shiftKey ? 10 : 1));
  return true;
}

function BoundaryNudge() {
  const appStore = useAppStore();
  const c = useApp((s) => s.candidate);
  const selected = useApp((s) => s.selectedBoundary);
  if (!c) return null;
  const n = c.file.numberOfShards;
  const names = c.router.shards.map((s) => s.name);
  const migrating = !!c.file.migration;
  const nudge = (k: number) => appStore.getState().nudgeSelected(k);
  return (
    <div className="review-edit-row" onKeyDown={(e) => nudgeKeys(appStore, e)}>
      <label className="small">
        boundary{' '}
        <select value={selected} data-testid="review-boundary-select" disabled={migrating || n < 2} onChange={(e) => appStore.getState().selectBoundary(Number(e.currentTarget.value))}>
          <option value={-1}>— pick one —</option>
          {c.file.boundaries.map((t, k) => (
            <option key={k + 1} value={k + 1}>
              {t} ({names[k]} | {names[k + 1]})
            </option>
          ))}
        </select>
      </label>
      <span className="review-nudge" aria-label="Move the boundary by non-empty cells">
        {[-10, -1, 1, 10].map((k) => (
          <button key={k} type="button" className="chip" disabled={selected < 1 || migrating} data-testid={`review-nudge-${k}`} onClick={() => nudge(k)} title={`${k < 0 ? 'left' : 'right'} by ${Math.abs(k)} non-empty cell${Math.abs(k) === 1 ? '' : 's'} (${k < 0 ? '←' : '→'}${Math.abs(k) === 10 ? ' with Shift' : ''})`}>
            {k < 0 ? `◀ ${-k}` : `${k} ▶`}
          </button>
        ))}
      </span>
      {migrating && <p className="dim small">This candidate has moves in progress (a migration): its boundaries cannot be edited.</p>}
    </div>
  );
}

function SplitMerge() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const c = useApp((s) => s.candidate);
  const file = c?.file ?? data?.file ?? null;
  const router = c?.router ?? data?.router ?? null;
  const sums = useApp((s) => s.reviewSums);
  // Weights of the file being edited, from the cells (files may omit counts).
  const weights = useMemo(() => {
    if (!router || !sums) return null;
    return router.shards.map((_, i) => {
      const x = sums.sum(router.starts[i], router.starts[i + 1]);
      return x.restaurants + x.dishes;
    });
  }, [router, sums]);
  const heaviest = weights ? weights.indexOf(Math.max(...weights)) : 0;
  const [split, setSplit] = useState<string | null>(null);
  const [merge, setMerge] = useState<number | null>(null);
  if (!file || !router || !weights) return null;
  const names = router.shards.map((s) => s.name);
  const splitName = split !== null && names.includes(split) ? split : names[heaviest];
  // Merge pairs: the lightest neighbouring pair by default.
  const pairs = names.slice(1).map((_, k) => k);
  const lightest = pairs.reduce((best, k) => (weights[k] + weights[k + 1] < weights[best] + weights[best + 1] ? k : best), 0);
  const pair = merge !== null && merge < names.length - 1 ? merge : lightest;
  return (
    <>
      <div className="review-edit-row">
        <label className="small">
          split{' '}
          <select value={splitName} data-testid="review-split-select" onChange={(e) => setSplit(e.currentTarget.value)}>
            {names.map((nm, i) => (
              <option key={nm} value={nm}>
                {nm} ({formatCompact(weights[i])}
                {i === heaviest ? ', heaviest' : ''})
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="review-button" data-testid="review-split" disabled={!!file.migration} onClick={() => void appStore.getState().splitReviewShard(splitName)}>
          Split at weighted median
        </button>
      </div>
      {names.length > 1 && (
        <div className="review-edit-row">
          <label className="small">
            merge{' '}
            <select value={pair} data-testid="review-merge-select" onChange={(e) => setMerge(Number(e.currentTarget.value))}>
              {pairs.map((k) => (
                <option key={k} value={k}>
                  {names[k]} + {names[k + 1]} ({formatCompact(weights[k] + weights[k + 1])})
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="review-button" data-testid="review-merge" disabled={!!file.migration} onClick={() => void appStore.getState().mergeReviewShards(names[pair], names[pair + 1])}>
            Merge neighbours
          </button>
        </div>
      )}
      <p className="dim small">Split and merge change the shard count{c ? ' of the candidate' : ' (from the current file)'}: OpenSearch cannot change an index's shard count in place, so either means a new index and a reindex of every document.</p>
    </>
  );
}

function LastEdit() {
  const c = useApp((s) => s.candidate);
  if (!c?.edit) return null;
  return (
    <div className="review-reindex" data-testid="review-edit-cost">
      <b>{c.edit.summary}.</b> {c.edit.consequence}
      {c.edit.renamed.length > 0 && <> Renamed (their hash collides under the new count): {c.edit.renamed.map((r) => `${r.from} → ${r.to}`).join(', ')}.</>}
    </div>
  );
}

function Save() {
  const appStore = useAppStore();
  const c = useApp((s) => s.candidate);
  const problems = useApp((s) => s.reviewSaveProblems);
  const data = useApp(readyData);
  if (!c || !data) return null;
  return (
    <div className="review-edit-row review-save">
      <button
        type="button"
        className="review-button primary"
        data-testid="review-save"
        onClick={() => {
          const file = appStore.getState().prepareSave();
          if (file) download(file);
        }}
        title={`Download as version ${data.file.version + 1}, parent ${data.file.hash.slice(0, 12)}…, with a new hash`}
      >
        Save as v{data.file.version + 1}…
      </button>
      {c.moves > 0 && (
        <button type="button" className="chip" data-testid="review-revert" onClick={() => appStore.getState().revertCandidate()}>
          revert {c.moves} boundary move{c.moves === 1 ? '' : 's'}
        </button>
      )}
      <span className="dim small">parent = the current file's hash; checked by the validator first</span>
      {problems.length > 0 && (
        <ul className="review-errors" role="alert" data-testid="review-save-problems">
          {problems.map((p, k) => (
            <li key={k} className="mono">
              {p}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ReviewEditor() {
  const hasCandidate = useApp((s) => s.candidate !== null);
  return (
    <section className="review-section review-editor" aria-label="Edit the candidate">
      <h3>
        Edit <span className="dim">· drag a tick on the review ribbon, or move it cell by cell here</span>
      </h3>
      {hasCandidate && <BoundaryNudge />}
      <SplitMerge />
      <LastEdit />
      <Save />
    </section>
  );
}
