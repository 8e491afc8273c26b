/**
 * How a search's shards answered: the status of a whole response by `_shards` (statusOf) and
 * each asked shard's (shardAnswers), consistently with what OpenSearch reports.
 */
import type { ShardRef } from '../../core/index.ts';
import { sideStatus, type SearchStatus, type ShardsSection, type AskedShard } from '../wire.ts';

/** statusOf classifies a search response by `_shards` alone: partial when it timed out or fewer shards answered than it counted. */
export function statusOf(body: { timed_out?: boolean; _shards: ShardsSection }): SearchStatus {
  return sideStatus({ timedOut: !!body.timed_out, shards: body._shards, shardsAsked: [] });
}

/**
 * shardAnswers says how each asked shard answered, consistently with
 * OpenSearch's `_shards`: a shard named in `failures` failed; a shard with no
 * started copy (`missing`, from `_cat/shards`) was unavailable; when fewer
 * shards succeeded than were asked and those two do not account for all of
 * them, OpenSearch does not say which others are short, so every shard not
 * already named is "unknown" (never "ok"); a timed-out search leaves every
 * unnamed shard unknown too. `reason` is one sentence for the whole side
 * (null when every shard answered).
 */
export function shardAnswers(
  plan: readonly (ShardRef & { cells: number })[],
  body: { timed_out?: boolean; _shards: ShardsSection },
  missing: ReadonlySet<number> = new Set(),
): { shardsAsked: AskedShard[]; reason: string | null } {
  const s = body._shards;
  const failed = new Map<number, string>();
  for (const f of s.failures ?? []) {
    if (typeof f.shard !== 'number') continue;
    const why = [f.reason?.type, f.reason?.reason].filter(Boolean).join(': ') || 'no reason given';
    failed.set(f.shard, failed.has(f.shard) ? `${failed.get(f.shard)}; ${why}` : why);
  }
  const asked = Math.max(s.total, plan.length);
  const short = Math.max(0, asked - s.successful);
  const named = plan.filter((sh) => failed.has(sh.shard) || missing.has(sh.shard)).length;
  const unnamed = short - named;
  const unknownReason = body.timed_out
    ? 'the search timed out; OpenSearch does not say which shards were late'
    : `OpenSearch reports ${short} of ${asked} shards did not answer but names only ${named}; this shard may be one of the other ${unnamed}`;
  const shardsAsked: AskedShard[] = plan.map((sh) => {
    const f = failed.get(sh.shard);
    if (f !== undefined) return { ...sh, status: 'failed', reason: f };
    if (missing.has(sh.shard)) return { ...sh, status: 'unavailable', reason: 'no started copy of the shard (unassigned or recovering)' };
    if (body.timed_out || unnamed > 0) return { ...sh, status: 'unknown', reason: unknownReason };
    return { ...sh, status: 'ok' };
  });
  const bad = shardsAsked.filter((x) => x.status !== 'ok');
  if (bad.length === 0 && !body.timed_out && short === 0 && s.failed === 0) return { shardsAsked, reason: null };
  const label = (x: AskedShard) => `${x.shard} "${x.name}"`;
  const parts: string[] = [`${s.successful} of ${asked} shards answered${body.timed_out ? ' before the search timed out' : ''}`];
  const of = (st: AskedShard['status']) => bad.filter((x) => x.status === st);
  if (of('failed').length) parts.push(`failed: ${of('failed').map((x) => `${label(x)} (${x.reason})`).join(', ')}`);
  if (of('unavailable').length) parts.push(`no started copy: ${of('unavailable').map(label).join(', ')}`);
  if (of('unknown').length) parts.push(`not named by OpenSearch${unnamed > 0 ? ` (${unnamed} missing)` : ''}, so unknown: ${of('unknown').map(label).join(', ')}`);
  return { shardsAsked, reason: `partial: ${parts.join('; ')}` };
}
