/**
 * The catch-up of a reindex: passes (docDiff.ts compareSides) over what
 * writers changed on SRC after the last checkpoint (`_seq_no`, per shard)
 * plus an id diff (deletes leave no sequence number to find), each fixing
 * what it found, until a pass finds (almost) nothing or no longer halves
 * what the pass before it found. Node only.
 */
import { compareSides, describeDiff, fixDiff, idsOf, isClean } from '../docDiff.ts';
import type { ReindexRun } from './context.ts';
import { fmt } from './state.ts';

/** catchUp runs the catch-up passes and moves the state to switching. */
export async function catchUp(run: ReindexRun): Promise<void> {
  const { src, dest, say, srcSide, destSide } = run;
  const save = () => run.save();
  let since = run.state.checkpoint!;
  let recheck = new Set(run.state.recheck ?? []);
  let last = Infinity;
  for (let pass = 1; pass <= 6; pass++) {
    const c = await compareSides(srcSide, destSide, since, recheck, { blocked: false });
    if (!isClean(c.diff)) await fixDiff(srcSide, destSide, c.diff);
    since = c.checkpoint;
    recheck = idsOf(c.diff);
    say(`catch-up pass ${pass}: ${fmt(c.counts.from.docs)} documents on "${src}", ${c.compared} written since the last pass compared by content: ${describeDiff(c.diff, `"${dest}"`)}`);
    run.state = { ...run.state, checkpoint: since, recheck: [...recheck] };
    await save();
    if (recheck.size <= 10) break;
    // Each pass reads every id of both indexes. When a pass does not halve what the one before it
    // found, writers keep pace with the passes: more of them cost O(index) each and leave the switch
    // as much to do (what is written during the last pass). The switch's exact check takes it.
    if (recheck.size * 2 > last) break;
    last = recheck.size;
  }
  run.state = { ...run.state, phase: 'switching', cutover: { blockedAt: null, windowsMs: run.state.cutover?.windowsMs ?? [] } };
  await save();
}
