/**
 * The switch of a reindex: SRC gets a write block (writers get a 403
 * cluster_block_exception and retry); under it one pass is exact; SRC's
 * checkpoint is read again after it (nothing may have slipped past the
 * block), then one `_aliases` call removes SRC from the alias and adds DEST.
 * A write that slipped past lifts the block and the switch tries again (at
 * most 5 times). Node only.
 */
import { compareSides, describeDiff, fixDiff, idsOf, isClean } from '../compare/docDiff.ts';
import { setWriteBlock } from '../migrate/cutover.ts';
import type { ReindexRun } from './reindexRun.ts';
import { seqNos } from '../compare/shardReader.ts';
import { aliasTargets, now, ReindexError } from './state.ts';

/** switchAlias moves the alias from SRC to DEST under a write block on SRC (or records a switch a killed run made), and moves the state to switched. */
export async function switchAlias(run: ReindexRun): Promise<void> {
  const { client, src, dest, alias, o, say, srcSide, destSide, result } = run;
  const save = () => run.save();
  const targets = await aliasTargets(client, alias);
  if (targets.length === 1 && targets[0] === dest) {
    // A killed run made the alias call and was killed before recording it.
    run.state = { ...run.state, phase: 'switched', cutover: { ...run.state.cutover!, blockedAt: null, switchedAt: run.state.cutover?.switchedAt ?? now() } };
    await save();
    say(`the alias "${alias}" already points at "${dest}" (a killed run switched it): recorded`);
  } else {
    const windows = [...(run.state.cutover?.windowsMs ?? [])];
    let since = run.state.checkpoint!;
    let recheck = new Set(run.state.recheck ?? []);
    for (let attempt = 1; ; attempt++) {
      if (attempt > 5) throw new ReindexError(`5 tries of the switch each found writes to "${src}" that slipped past its write block: the alias stays on "${src}". Run the command again.`);
      run.state = { ...run.state, cutover: { ...run.state.cutover!, blockedAt: run.state.cutover?.blockedAt ?? now(), windowsMs: windows } };
      await save();
      const t0 = performance.now();
      await setWriteBlock(client, src, true);
      const tBlocked = performance.now();
      // Under the block SRC does not change: a pass, its fix, and one more pass must be clean.
      // The first pass's checkpoint is SRC's at the block: it must not have moved at the end.
      let c = await compareSides(srcSide, destSide, since, recheck, { blocked: true, presenceByCount: true });
      const atBlock = c.checkpoint.from;
      for (let k = 0; k < 3 && !isClean(c.diff); k++) {
        await fixDiff(srcSide, destSide, c.diff);
        say(`switch try ${attempt}: under the write block: ${describeDiff(c.diff, `"${dest}"`)}: fixed`);
        c = await compareSides(srcSide, destSide, since, idsOf(c.diff), { blocked: true, presenceByCount: true });
      }
      const tChecked = performance.now();
      await o.pause?.('switching');
      const after = await seqNos(client, src);
      if (!isClean(c.diff) || after.some((s, k) => s !== atBlock[k])) {
        await setWriteBlock(client, src, false);
        windows.push(Math.round(performance.now() - t0));
        run.state = { ...run.state, cutover: { ...run.state.cutover!, blockedAt: null, windowsMs: windows } };
        await save();
        say(`switch try ${attempt}: a write reached "${src}" under the block (checkpoint moved) or the copy still differs: lifted the block after ${windows[windows.length - 1]} ms; trying again`);
        since = c.checkpoint;
        recheck = idsOf(c.diff);
        continue;
      }
      const actions = [...(targets.includes(src) ? [{ remove: { index: src, alias } }] : []), { add: { index: dest, alias } }];
      await client.admin('POST', '/_aliases', { body: { actions } });
      const tSwitched = performance.now();
      windows.push(Math.round(tSwitched - t0));
      const destAt = await seqNos(client, dest);
      run.state = { ...run.state, phase: 'switched', cutover: { blockedAt: null, windowsMs: windows, switchedAt: now(), checkpoint: { from: after, to: destAt } } };
      await save();
      const ms = (a: number, b: number) => Math.round(b - a);
      say(
        `switched "${alias}" from "${src}" to "${dest}" in one _aliases call: writes to "${src}" blocked ${windows[windows.length - 1]} ms before the alias moved (block ${ms(t0, tBlocked)}, exact check ${ms(tBlocked, tChecked)} with presence by ${c.presence}, alias call ${ms(tChecked, tSwitched)}); ` +
          `"${src}" stays write-blocked (writes by its name are refused, not lost) until --finalize deletes it or --rollback points the alias back`,
      );
      break;
    }
  }
  result.windowsMs = run.state.cutover?.windowsMs ?? [];
}
