/**
 * The search box's answers to what was pasted (CitySearch):
 *
 * - PastedCellCard: the pasted S2 cell (searchSlice `pastedCell`, any level): its level, the
 *   level-10 cells it spans, and every shard of the boundary file that span overlaps (the core's
 *   cellShards), with how many of its level-10 cells each holds and the routing string.
 *   Test hook paste-cell (data-token, data-level, data-shards: names in key order, comma-joined).
 * - DocumentCard: a document looked up on the live index (GET /api/documents/:id): its location,
 *   its level-10 cell, the shard the boundary file names, the shard(s) that hold it, and whether
 *   they agree. Test hook paste-doc (data-agrees).
 */
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { toHex } from '../shell/palette';
import { formatLatLng } from '../shell/format';
import { parseAnyToken, cellShards } from '../../core/anyCell';
import type { DocLookup } from '../api/documents';

function Swatch({ index }: { index: number }) {
  const data = useApp(readyData);
  const c = data?.colors[index];
  return <i className="swatch" aria-hidden="true" style={c ? { background: toHex(c) } : undefined} />;
}

export function PastedCellCard() {
  const appStore = useAppStore();
  const pasted = useApp((s) => s.pastedCell);
  const data = useApp(readyData);
  if (!pasted || !data) return null;
  const cell = parseAnyToken(pasted.token);
  const s = cellShards(data.router, cell.id);
  const span = s.last - s.first + 1;
  const names = s.shards.map((x) => x.name);
  return (
    <div className="paste-card" data-testid="paste-cell" data-token={cell.token} data-level={cell.level} data-shards={names.join(',')} role="status">
      <p className="paste-card-head">
        <b>
          S2 cell <code>{cell.token}</code>
        </b>{' '}
        <span className="dim">· level {cell.level}</span>
        <button type="button" className="link" aria-label="clear the pasted cell" onClick={() => appStore.getState().setPastedCell(null)}>
          clear
        </button>
      </p>
      <p className="small dim">
        {cell.level < 10
          ? `Spans ${span.toLocaleString('en-US')} level-10 cells, in ${names.length === 1 ? 'one shard' : `${names.length} shards`}:`
          : cell.level === 10
            ? 'A level-10 cell: documents here live in one shard:'
            : 'Inside one level-10 cell, so in one shard:'}
      </p>
      <ul className="paste-shards">
        {s.shards.map((x, k) => (
          <li key={x.name} data-testid={`paste-shard-${x.name}`}>
            <Swatch index={s.indices[k]} />
            <b>{x.name}</b> <span className="dim">OpenSearch shard {x.shard}</span>
            {cell.level < 10 && <span className="dim"> · {s.cells[k].toLocaleString('en-US')} cells</span>}
          </li>
        ))}
      </ul>
      <p className="small">
        <span className="dim">routing=</span>
        <code>{names.join(',')}</code>
      </p>
    </div>
  );
}

export function DocumentCard({ id, answer, onClose }: { id: string; answer: DocLookup | null; onClose: () => void }) {
  const close = (
    <button type="button" className="link" aria-label="close the document" onClick={onClose}>
      close
    </button>
  );
  if (!answer) {
    return (
      <div className="paste-card" data-testid="paste-doc" data-state="pending" role="status">
        <p className="paste-card-head">
          Looking for document <code>{id}</code> on every shard… {close}
        </p>
      </div>
    );
  }
  if (!answer.ok) {
    return (
      <div className="paste-card" data-testid="paste-doc" data-state="failed" role="status">
        <p className="paste-card-head">
          <b>
            Document <code>{id}</code>
          </b>
          {close}
        </p>
        <p className="field-problem">{answer.message}</p>
      </div>
    );
  }
  const d = answer.doc;
  const wrong = d.copies.filter((c) => !c.agrees);
  return (
    <div className="paste-card" data-testid="paste-doc" data-state="found" data-agrees={String(d.agrees)} role="status">
      <p className="paste-card-head">
        <b>
          Document <code>{d.id}</code>
        </b>{' '}
        {d.kind && <span className="dim">· {d.kind}</span>}
        {close}
      </p>
      <dl className="paste-facts">
        <dt>location</dt>
        <dd>{formatLatLng(d.location.lat, d.location.lng)}</dd>
        <dt>level-10 cell</dt>
        <dd>
          <code>{d.cell}</code>
        </dd>
        <dt>the file names</dt>
        <dd data-testid="paste-doc-file">
          {d.file.name} <span className="dim">(shard {d.file.shard})</span>
        </dd>
        <dt>held by</dt>
        <dd data-testid="paste-doc-held">
          {d.copies.map((c, k) => (
            <span key={k}>
              {k > 0 && '; '}
              {c.name ?? '?'} <span className="dim">(shard {c.shard}{c.routing ? `, routing ${c.routing}` : ''})</span>
            </span>
          ))}
        </dd>
      </dl>
      <p className={d.agrees ? 'paste-verdict ok' : 'paste-verdict bad'} data-testid="paste-doc-verdict">
        {d.agrees
          ? `✓ They agree: the document is on the shard the boundary file names for its cell.`
          : `✗ They disagree: ${wrong.map((c) => `a copy is on shard ${c.shard}`).join(', ')}, the file names shard ${d.file.shard} (${d.file.name}). Routed searches will miss it: run "npx geoshard verify-routing".`}
      </p>
    </div>
  );
}
