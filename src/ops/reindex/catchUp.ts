/**
 * The catch-up of a reindex: passes (docDiff.ts catchUpPass) over what
 * writers changed on SRC after the last checkpoint (`_seq_no`, per shard),
 * then presence (deletes leave no sequence number to find) where the counts
 * per map tile differ (or over every id when the cluster cannot count
 * tiles), each fixing what it found, until a pass finds (almost) nothing or
 * no longer halves what the pass before it found. Node only.
 */
import { catchUpPass, describeDiff, idsOf } from '../compare/docDiff.ts';
import type { ReindexRun } from './reindexRun.ts';
import { fmt } from './state.ts';

/** catchUp runs the catch-up passes and moves the state to switching. */
export async function catchUp(run: ReindexRun): Promise<void> {
  const { src, dest, say, srcSide, destSide } = run;
  const save = () => run.save();
  let since = run.state.checkpoint!;
  let recheck = new Set(run.state.recheck ?? []);
  let last = Infinity;
  for (let pass = 1; pass <= 6; pass++) {
    const c = await catchUpPass(srcSide, destSide, since, recheck);
    since = c.checkpoint;
    recheck = idsOf(c.diff);
    const how = c.presence === 'parts' ? `ids of ${fmt(c.presenceDocs)} documents in the map tiles whose counts differed` : `every id (${fmt(c.presenceDocs)})`;
    say(`catch-up pass ${pass}: ${fmt(c.docs)} documents on "${src}", ${c.compared} written since the last pass compared by content, presence by ${how}: ${describeDiff(c.diff, `"${dest}"`)}: fixed`);
    run.state = { ...run.state, checkpoint: since, recheck: [...recheck] };
    await save();
    if (recheck.size <= 10) break;
    // When a pass does not halve what the one before it found, writers keep pace with the passes:
    // more of them leave the switch as much to do (what is written during the last pass), and a pass
    // that must read every id (no tile counts) costs O(index). The switch's exact check takes it.
    if (recheck.size * 2 > last) break;
    last = recheck.size;
  }
  run.state = { ...run.state, phase: 'switching', cutover: { blockedAt: null, windowsMs: run.state.cutover?.windowsMs ?? [] } };
  await save();
}
