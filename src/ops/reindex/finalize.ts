/**
 * After the switch: --finalize (delete SRC, give its name to DEST when
 * clients used it) and --rollback (point the alias back at SRC after copying
 * DEST's writes since the switch back). Node only.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import { setWriteBlock } from '../migrate/cutover.ts';
import { compareSides, describeDiff, fixDiff, idsOf, isClean } from '../compare/docDiff.ts';
import { sourceInfo } from './createDest.ts';
import { indexSide } from './indexSide.ts';
import { shardCount } from '../compare/shardReader.ts';
import { aliasTargets, now, readReindex, ReindexError } from './state.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import type { IndexMeta } from '../../opensearch/meta.ts';

const enc = encodeURIComponent;

/**
 * finalizeReindex deletes SRC after a switch and, when clients used SRC's
 * name (no alias before), gives that name to DEST as a second alias in the
 * same `_aliases` call (`remove_index` + `add`: no moment without the name).
 * Then DEST's `_meta` forgets the reindex.
 */
export async function finalizeReindex(client: OpenSearchClient, dest: string, say: (l: string) => void): Promise<void> {
  const found = await readReindex(client, dest);
  if (!found?.state) throw new ReindexError(`index "${dest}" records no reindex to finalize`);
  const { meta, state } = found;
  if (state.phase !== 'switched') throw new ReindexError(`the reindex of "${state.from}" into "${dest}" is at ${state.phase}, not switched: --finalize deletes the source only after the switch${state.phase === 'rolled-back' ? ' (it was rolled back: delete "' + dest + '" instead)' : ' (run the reindex to its end first)'}`);
  // Gone, or already an alias of DEST (a killed finalize made the call and did not record it): nothing to delete.
  const exists = (await client.request('HEAD', `/${enc(state.from)}`, { okStatuses: [404] })).status !== 404 && (await aliasTargets(client, state.from)).length === 0;
  if (exists) {
    const actions = [{ remove_index: { index: state.from } }, ...(state.renameOnFinalize ? [{ add: { index: dest, alias: state.from } }] : [])];
    await client.admin('POST', '/_aliases', { body: { actions } });
    say(`deleted "${state.from}"${state.renameOnFinalize ? ` and made "${state.from}" an alias of "${dest}" in the same _aliases call (clients that wrote it by name work again)` : ''}`);
  }
  const { reindex: _r, ...rest } = meta;
  await writeMeta(client, dest, rest as IndexMeta);
  say(`"${dest}" is settled behind "${state.alias}"`);
}

/**
 * rollbackReindex points the alias back at SRC after a switch: DEST gets the
 * write block, DEST's writes since the switch are copied back to SRC (the
 * same passes, the other way), SRC's block is lifted and one `_aliases` call
 * moves the alias. DEST stays (write-blocked) with phase rolled-back.
 */
export async function rollbackReindex(client: OpenSearchClient, dest: string, say: (l: string) => void): Promise<void> {
  const found = await readReindex(client, dest);
  if (!found?.state) throw new ReindexError(`index "${dest}" records no reindex to roll back`);
  let { meta, state } = found;
  const src = state.from;
  if (state.phase === 'rolled-back') return say(`already rolled back: "${state.alias}" points at "${src}"`);
  const exists = (await client.request('HEAD', `/${enc(src)}`, { okStatuses: [404] })).status !== 404;
  if (!exists) throw new ReindexError(`the source "${src}" no longer exists (finalized): there is nothing to roll back to`);
  const targets = await aliasTargets(client, state.alias);
  if (state.phase !== 'switched' && !targets.includes(dest)) {
    // Not switched: clients never left SRC. Lift a block a killed switch left, and stop.
    await setWriteBlock(client, src, false);
    state = { ...state, phase: 'rolled-back', updatedAt: now() };
    await writeMeta(client, dest, { ...meta, reindex: state });
    return say(`the alias "${state.alias}" never left "${src}": lifted its write block; "${dest}" is kept (delete it, or resume never: it is rolled back)`);
  }
  const info = await sourceInfo(client, src);
  const destShards = await shardCount(client, dest);
  const destSide = indexSide(client, dest, destShards, { join: info.shape.join, pipeline: true });
  const srcSide = indexSide(client, src, info.shards, info.shape);
  const t0 = performance.now();
  await setWriteBlock(client, dest, true);
  await setWriteBlock(client, src, false);
  const cp = state.cutover?.checkpoint;
  const since = cp ? { from: cp.to, to: cp.from } : { from: destShards ? Array(destShards).fill(-1) : [], to: Array(info.shards).fill(-1) };
  let c = await compareSides(destSide, srcSide, since, new Set(), { blocked: true });
  for (let k = 0; k < 3 && !isClean(c.diff); k++) {
    await fixDiff(destSide, srcSide, c.diff);
    say(`rollback: copied back to "${src}": ${describeDiff(c.diff, `"${src}"`)}`);
    c = await compareSides(destSide, srcSide, since, idsOf(c.diff), { blocked: true });
  }
  if (!isClean(c.diff)) throw new ReindexError(`rollback: "${src}" still differs from "${dest}" after 3 fixes: ${describeDiff(c.diff, `"${src}"`)}; the alias stays on "${dest}"`);
  const actions = [{ remove: { index: dest, alias: state.alias } }, { add: { index: src, alias: state.alias } }];
  await client.admin('POST', '/_aliases', { body: { actions } });
  state = { ...state, phase: 'rolled-back', updatedAt: now() };
  await writeMeta(client, dest, { ...meta, reindex: state });
  say(`rolled back: "${state.alias}" points at "${src}" again (${Math.round(performance.now() - t0)} ms with "${dest}" write-blocked); "${dest}" is kept, write-blocked`);
}

