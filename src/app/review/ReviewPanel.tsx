/**
 * ReviewPanel: the side panel's boundary review (issue 6). Load a candidate
 * boundary file (picker, drop anywhere, or ?candidate=URL), see what it
 * changes against the current file (moves, documents moved, evenness,
 * fan-out, load over a request workload, the current search under both), edit it (boundaries on the
 * review ribbon or cell by cell here; split and merge) and save it as the
 * next version of the current file.
 */
import { useRef } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { offerCandidateFile } from './reviewDriver';
import { ReviewMoves, ReviewEvenness, ReviewFanoutTable, ReviewSearch } from './ReviewFigures';
import { ReviewEditor } from './ReviewEditor';
import { ReviewWorkload } from './ReviewWorkload';
import { formatInt } from '../shell/format';
import '../ui/review.css';
import { ProblemList } from '../shell/ProblemList';

const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)}%`;

function Loader() {
  const appStore = useAppStore();
  const input = useRef<HTMLInputElement>(null);
  const hasCells = useApp((s) => s.reviewSums !== null);
  return (
    <div className="review-load">
      <p className="panel-intro">
        Compare a <b>candidate</b> boundary file with the current one before shipping it: what moves, how even the shards become, what it does to fan-out.
      </p>
      <div className="review-load-row">
        <button type="button" className="review-button" onClick={() => input.current?.click()}>
          Open candidate…
        </button>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="review-file-input"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) void offerCandidateFile(f);
            e.currentTarget.value = '';
          }}
        />
        <button type="button" className="review-button" disabled={!hasCells} data-testid="review-edit-current" onClick={() => appStore.getState().editCurrent()} title="Start a candidate from the current file and move its boundaries">
          Edit a copy of the current file
        </button>
      </div>
      <p className="dim small">
        or drop a boundary file anywhere on the page, or open the page with <code>?candidate=/path.json</code>
      </p>
    </div>
  );
}

function Errors() {
  const appStore = useAppStore();
  const err = useApp((s) => s.candidateError);
  if (!err) return null;
  return (
    <div className="review-errors" role="alert" data-testid="review-errors">
      <b>{err.title}</b>
      <ProblemList problems={err.problems} />
      <button type="button" className="chip" onClick={() => appStore.setState({ candidateError: null })}>
        dismiss
      </button>
    </div>
  );
}

function Files() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const c = useApp((s) => s.candidate);
  if (!data || !c) return null;
  const f = c.file;
  return (
    <dl className="review-files">
      <dt>current</dt>
      <dd>
        <span className="mono">{data.source}</span> · v{data.file.version} · {data.file.numberOfShards} shards · <span className="mono">{data.file.hash.slice(0, 12)}</span>
      </dd>
      <dt>candidate</dt>
      <dd data-testid="review-candidate">
        <span className="mono">{c.source}</span> · v{f.version} · {f.numberOfShards} shards · <span className="mono">{f.hash.slice(0, 12)}</span>
        {c.moves > 0 && <span className="review-edited"> · {c.moves} boundary move{c.moves === 1 ? '' : 's'} (unsaved)</span>}{' '}
        <button type="button" className="chip" data-testid="review-clear" onClick={() => appStore.getState().clearCandidate()}>
          clear
        </button>
      </dd>
    </dl>
  );
}

function Totals() {
  const appStore = useAppStore();
  const d = useApp((s) => s.reviewDiff);
  const match = useApp((s) => s.reviewMatch);
  const generic = useApp((s) => s.cells?.unit === 'documents');
  if (!d) return null;
  return (
    <>
      {d.reindex && (
        <div className="review-reindex" role="status" data-testid="review-reindex">
          <b>Reindex: every document is written again.</b> {d.reindex}.
        </div>
      )}
      <div className="review-totals">
        <div>
          <span className="review-big" data-testid="review-moved-documents">
            {formatInt(d.totals.documents)}
          </span>{' '}
          documents change owner ={' '}
          <b data-testid="review-moved-share">{pct(d.totals.share)}</b> of the index
        </div>
        <div className="dim small">
          {generic ? `${formatInt(d.totals.documents)} documents` : `${formatInt(d.totals.restaurants)} restaurants + ${formatInt(d.totals.dishes)} dishes`} in {d.moves.length} key range{d.moves.length === 1 ? '' : 's'} ({formatInt(d.totals.cells)} non-empty cells) · owners matched by {match === 'name' ? 'shard name (the routing value)' : 'range overlap (names aside)'}
        </div>
        {!d.sameLayout && (
          <div className="review-match small">
            pair shards by{' '}
            <span className="segmented">
              <button type="button" aria-pressed={match === 'name'} data-testid="review-match-name" onClick={() => appStore.getState().setReviewMatch('name')}>
                name
              </button>
              <button type="button" aria-pressed={match === 'range'} data-testid="review-match-range" onClick={() => appStore.getState().setReviewMatch('range')}>
                range overlap
              </button>
            </span>{' '}
            <span className="dim">by name is what moves between OpenSearch shards; by range is the geometric change</span>
          </div>
        )}
      </div>
    </>
  );
}

export function ReviewPanel() {
  const hasCandidate = useApp((s) => s.candidate !== null);
  const hasCells = useApp((s) => s.reviewSums !== null);
  const notice = useApp((s) => s.reviewNotice);
  return (
    <div className="review-panel" data-testid="review-panel">
      <Loader />
      <Errors />
      {notice && (
        <p className="review-notice" role="status" data-testid="review-notice">
          {notice}
        </p>
      )}
      {hasCandidate && !hasCells && <p className="dim">Loading the cell weights (documents per cell)…</p>}
      <Files />
      <Totals />
      {hasCandidate && (
        <>
          <ReviewMoves />
          <ReviewEvenness />
          <ReviewFanoutTable />
          <ReviewWorkload />
          <ReviewSearch />
          <ReviewEditor />
        </>
      )}
      {!hasCandidate && hasCells && <ReviewEditor />}
    </div>
  );
}
