/**
 * MigrationPanel: a migration running on the live index, read from
 * /api/status every second while the tab is open (`geoshard migrate` runs in
 * another process; the index's `_meta` is what both read). Each moving range:
 * its owners, its step, the documents copied and verified; the epoch
 * searches route with. A range is hatched while it moves and takes its new
 * owner's color when done; with no migration the index's settled file is named.
 *
 * Test hooks: migration-state (data-state loading | moving | settled | unknown),
 * migration-epoch, migration-range (data-step, one per range), migration-copied,
 * migration-verified.
 */
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { shardColor, toHex } from '../shell/palette';
import { STEP_TEXT, cutoverText, isMoving, type MigrationStatus } from '../api/migration';
import '../ui/migration.css';

const n = (x: number) => x.toLocaleString('en-US');

function RangeRow({ m, k, total }: { m: MigrationStatus['moves'][number]; k: number; total: number }) {
  const moving = isMoving(m.step);
  const from = toHex(shardColor(m.fromShard));
  const to = toHex(shardColor(m.toShard));
  // Hatched in both owners' colors while the range has two copies; the new owner's color once done.
  const swatch = m.step === 'done' ? { background: to } : m.step === 'pending' ? { background: from } : { backgroundImage: `repeating-linear-gradient(45deg, ${from} 0 6px, ${to} 6px 12px)` };
  return (
    <li className={`migration-range${moving ? ' moving' : ''}`} data-testid="migration-range" data-step={m.step}>
      <span className="migration-swatch" style={swatch} aria-hidden="true" />
      <div>
        <p>
          <b>
            Range {k + 1}/{total}
          </b>{' '}
          <code>
            [{m.start}, {m.end ?? 'end'})
          </code>{' '}
          {m.from} (shard {m.fromShard}) → {m.to} (shard {m.toShard})
        </p>
        <p className="small">
          <span className="migration-step">{STEP_TEXT[m.step]}</span> · <span data-testid="migration-copied">copied {n(m.copied.restaurants + m.copied.dishes)}</span> ·{' '}
          <span data-testid="migration-verified">
            {m.verified ? `verified ${n(m.verified.from.restaurants)} restaurants + ${n(m.verified.from.dishes)} dishes on both owners` : 'not verified yet'}
          </span>
          {cutoverText(m.cutover) && (
            <>
              {' '}
              · <span data-testid="migration-cutover" data-blocked={m.cutover?.blockedAt ? 'yes' : 'no'}>{cutoverText(m.cutover)}</span>
            </>
          )}
        </p>
      </div>
    </li>
  );
}

export function MigrationPanel() {
  const watch = useApp((s) => s.migrationWatch);
  const data = useApp(readyData);
  const r = watch.reading;
  if (watch.phase !== 'ready' || !r) {
    return (
      <section className="migration-panel" data-testid="migration-state" data-state="loading">
        <p>Asking the live API for the index’s migration state…</p>
      </section>
    );
  }
  if (r.kind === 'unknown') {
    return (
      <section className="migration-panel" data-testid="migration-state" data-state="unknown">
        <p className="migration-error">{r.message}</p>
      </section>
    );
  }
  if (r.kind === 'settled') {
    const ours = data?.file.hash;
    return (
      <section className="migration-panel" data-testid="migration-state" data-state="settled">
        <p>
          <b>No migration in progress.</b> Index {r.index ? <code>{r.index}</code> : null} is settled on boundary file <code>{r.indexHash?.slice(0, 12) ?? '?'}</code>
          {ours && r.indexHash ? (ours === r.indexHash ? ' (the explorer’s file).' : ' (not the explorer’s file).') : '.'}
        </p>
        <p className="small dim">
          Start one with <code>npx geoshard migrate --candidate CANDIDATE.json</code>: this view follows it while it runs.
        </p>
      </section>
    );
  }
  const m = r.migration;
  const done = m.moves.filter((x) => x.step === 'done').length;
  return (
    <section className="migration-panel" data-testid="migration-state" data-state="moving">
      <p>
        <b>Migration in progress</b> · epoch <b data-testid="migration-epoch">{m.epoch}</b> · {done} of {m.moves.length} range{m.moves.length === 1 ? '' : 's'} done
      </p>
      <p className="small dim">
        From <code>{m.base.slice(0, 12)}</code> to <code>{m.target.slice(0, 12)}</code> (version {m.targetVersion}), started {m.startedAt}. Searches read each range from one owner and ignore the other copy.
      </p>
      <ol className="migration-ranges">
        {m.moves.map((x, k) => (
          <RangeRow key={`${x.start}-${x.from}`} m={x} k={k} total={m.moves.length} />
        ))}
      </ol>
    </section>
  );
}
