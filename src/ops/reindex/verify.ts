/**
 * The verify of a reindex (VDiff): every document of SRC against every
 * document of DEST, per DEST shard: ids, content hash (docDiff.ts digestOf)
 * and the shard the core's router names for its location, independently of
 * the pipeline. Both sides are joined on disk (SpillJoin), so memory does not
 * grow with the index. What differs is printed and fixed; writers keep
 * writing, and the catch-up takes the differences of what they wrote after
 * the checkpoint. Node only.
 */
import type { Router } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { PipelineFields } from '../../opensearch/routingPipeline.ts';
import { describeDiff, fixDiff, spillHash, idsOf, isClean, type RangeDiff } from '../compare/docDiff.ts';
import { SpillJoin } from '../compare/spill.ts';
import type { ReindexRun } from './reindexRun.ts';
import type { SourceInfo } from './createDest.ts';
import { progressMeter } from './progress.ts';
import { eachShard, PAGE, seqNos, shardPages } from '../compare/shardReader.ts';
import { fmt, now, type SeqCheckpoint } from './state.ts';
import { fieldAt, pointOf } from '../../opensearch/documentFields.ts';

const enc = encodeURIComponent;

/** One DEST shard's line of the verify. */
export interface ShardVerify {
  shard: number;
  name: string;
  /** SRC documents whose location this shard owns. */
  expected: number;
  /** DEST documents on the shard. */
  held: number;
  missing: number;
  changed: number;
  extra: number;
  /** Held here, but their location names another shard. */
  misplaced: number;
}

/**
 * verifyIndexes compares every document of SRC with DEST, per DEST shard
 * (VDiff): ids, content hash, and the shard the router names for the
 * document's location. Checkpoints of both are taken before the reads.
 * Prints one line per shard and the first differing ids.
 */
export async function verifyIndexes(client: OpenSearchClient, src: string, dest: string, info: SourceInfo, destShards: number, router: Router, fields: PipelineFields, say: (l: string) => void): Promise<{ diff: RangeDiff; checkpoint: SeqCheckpoint; source: number; dest: number; shards: ShardVerify[] }> {
  const checkpoint = { from: await seqNos(client, src), to: await seqNos(client, dest) };
  await Promise.all([client.request('POST', `/${enc(src)}/_refresh`, { timeoutMs: 120_000 }), client.request('POST', `/${enc(dest)}/_refresh`, { timeoutMs: 120_000 })]);
  // Progress: SRC's documents read, then DEST's compared, against both counts.
  const countOf = async (index: string) => (await client.request<{ count: number }>('POST', `/${enc(index)}/_count`, { body: { query: { match_all: {} } } })).body.count;
  const srcTotal = await countOf(src);
  const destTotal = await countOf(dest);
  const meter = progressMeter('verify: checked', srcTotal + destTotal, say);
  // Both sides stream into a SpillJoin (spill.ts) as id → "<DEST shard>:<content hash>": SRC with the
  // shard its location names, DEST with the shard that holds it; they are joined a partition at a
  // time on disk. The process keeps no per-document state for the whole index (a Map of every id
  // stopped at V8's 16.7 M entries, and cost ~300 bytes a document before that).
  const shards: ShardVerify[] = router.shards.map((s) => ({ shard: s.shard, name: s.name, expected: 0, held: 0, missing: 0, changed: 0, extra: 0, misplaced: 0 }));
  const byShard = new Map(shards.map((s) => [s.shard, s]));
  const join = new SpillJoin(Math.max(srcTotal, destTotal));
  const diff: RangeDiff = { missing: [], changed: [], extra: [] };
  const unlocated: string[] = [];
  let unlocatedCount = 0;
  try {
    await eachShard(info.shards, 3, async (k) => {
      for await (const hits of shardPages(client, src, k, { match_all: {} }, PAGE, true)) {
        for (const h of hits) {
          const s = h._source ?? {};
          const p = pointOf(fieldAt(s, fields.location)) ?? (fields.childLocation ? pointOf(fieldAt(s, fields.childLocation)) : null);
          if (!p && unlocatedCount++ < 3) unlocated.push(h._id);
          const shard = p ? router.readShard(p.lat, p.lng).shard : -1;
          if (shard >= 0) byShard.get(shard)!.expected++;
          join.a(h._id, `${shard}:${spillHash(s)}`);
        }
        meter.add(hits.length);
      }
    });
    await eachShard(destShards, 3, async (k) => {
      for await (const hits of shardPages(client, dest, k, { match_all: {} }, PAGE, true)) {
        const line = byShard.get(k)!;
        for (const h of hits) {
          line.held++;
          join.b(h._id, `${k}:${spillHash(h._source ?? {})}`);
        }
        meter.add(hits.length);
      }
    });
    tallyVerify(join, byShard, diff);
  } finally {
    join.close();
  }
  const srcCount = join.counts.a;
  const destCount = join.counts.b;
  meter.line(true);
  const clean = { missing: [...new Set(diff.missing)].sort(), changed: [...new Set(diff.changed)].sort(), extra: [...new Set(diff.extra)].sort() };
  say(`verify: ${fmt(srcCount)} documents on "${src}", ${fmt(destCount)} on "${dest}", compared per document (id, content hash, shard of the location):`);
  for (const s of shards) {
    const bad = s.missing + s.changed + s.extra + s.misplaced;
    say(`  shard ${s.shard} ${s.name}: ${fmt(s.expected)} expected, ${fmt(s.held)} held${bad ? `: ${s.missing} missing, ${s.changed} different, ${s.extra} only on "${dest}", ${s.misplaced} on the wrong shard` : ', equal'}`);
  }
  if (unlocatedCount > 0) say(`verify: ${unlocatedCount} documents of "${src}" have no point at ${fields.location}${fields.childLocation ? ` or ${fields.childLocation}` : ''} (${unlocated.slice(0, 3).join(', ')}): the pipeline refuses them`);
  say(`verify: ${describeDiff(clean, `"${dest}"`)}`);
  return { diff: clean, checkpoint, source: srcCount, dest: destCount, shards };
}

/** The DEST shard of a verify record ("<shard>:<content hash>"; -1: no location). */
const shardOf = (w: string) => Number(w.slice(0, w.indexOf(':')));

/**
 * tallyVerify joins the verify's two sides (SpillJoin: SRC's records
 * "<DEST shard its location names>:<hash>", DEST's "<shard holding it>:<hash>")
 * and adds every difference to `diff` and to its shard's line in `byShard`:
 * missing (SRC only: counted on the shard that should hold it), extra (DEST
 * only), misplaced (held on another shard than its location names, or held
 * twice: every copy is deleted, then copied again) and changed (content).
 * Memory: one partition of each side.
 */
export function tallyVerify(join: SpillJoin, byShard: ReadonlyMap<number, ShardVerify>, diff: RangeDiff): void {
  join.join((id, w, held, dup) => {
    if (held === undefined) {
      diff.missing.push(id);
      const k = shardOf(w!);
      if (k >= 0) byShard.get(k)!.missing++;
      return;
    }
    const line = byShard.get(shardOf(held))!;
    if (w === undefined) diff.extra.push(id), line.extra++;
    else if (dup) diff.changed.push(id), line.misplaced++;
    else if (shardOf(w) !== shardOf(held)) line.misplaced++, diff.changed.push(id);
    else if (w.slice(w.indexOf(':')) !== held.slice(held.indexOf(':'))) line.changed++, diff.changed.push(id);
  });
}

/** verifyPhase runs the verify, fixes what differs, and moves the state to catching-up from the copy checkpoint. */
export async function verifyPhase(run: ReindexRun): Promise<void> {
  const { client, src, dest, file, router, fields, info, o, say, srcSide, destSide, result } = run;
  const save = () => run.save();
  const v = await verifyIndexes(client, src, dest, info, file.numberOfShards, router, fields, say);
  await o.pause?.('verifying');
  if (!isClean(v.diff)) {
    const f = await fixDiff(srcSide, destSide, v.diff);
    say(`verify: fixed: ${f.copied} copied again, ${f.deleted} deleted from "${dest}" (documents written during the copy are among them; the catch-up re-checks every one)`);
  }
  run.state = {
    ...run.state,
    phase: 'catching-up',
    // The copy checkpoint is older than the verify's reads: the passes start from it, re-checking what the verify fixed.
    checkpoint: { from: run.state.copyCheckpoint, to: v.checkpoint.to },
    recheck: [...idsOf(v.diff)].slice(0, 100_000),
    verified: { source: v.source, dest: v.dest, differed: idsOf(v.diff).size, at: now() },
  };
  result.verified = run.state.verified;
  await save();
}
