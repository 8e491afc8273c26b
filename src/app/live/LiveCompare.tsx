/**
 * LiveCompare: the routed search beside the same search on all shards:
 * status, shards asked "k / N", the routing string sent, took and wall time,
 * total hits, OpenSearch's _shards counts and one chip per shard asked,
 * colored by how it answered (the swatch is the shard's palette color).
 * Below: the cost ratio. LiveIdentical (identical ✓/✗ with the differences)
 * is rendered by the panel at its top, so the verdict leads.
 *
 * Who routed each search is said beside its routing: this server (routing= sent), the
 * cluster's search pipeline (the geoshard plugin: the shards it asked, from its report in the
 * response), or nobody (every shard).
 *
 * Test hooks: live-routed / live-unrouted (data-status, data-scope), inside
 * each: live-<side>-shards ("k / N"), -routing, -routed-by (data-by client | cluster | none),
 * -took, -wall, -total, and
 * chips live-<side>-chip-<name> (data-status ok | failed | unavailable |
 * unknown); live-identical (data-identical true | false); live-routing-match.
 */
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { searchAsked } from '../shell/searchAsked';
import { formatShardCount } from '../../core/searches.ts';
import { toHex } from '../shell/palette';
import { formatInt, formatMs } from '../shell/format';
import { liveNoun } from '../api/status';
import type { LiveResult, LiveShard, LiveSide } from '../api/search';

const ANSWER_TEXT: Record<LiveShard['status'], { icon: string; text: string }> = {
  ok: { icon: '✓', text: 'answered' },
  failed: { icon: '✗', text: 'failed' },
  unavailable: { icon: '⊘', text: 'unavailable: no started copy' },
  unknown: { icon: '?', text: 'unknown: the search timed out and OpenSearch does not say which shard was late' },
};

function ShardChips({ side, prefix }: { side: LiveSide; prefix: string }) {
  const data = useApp(readyData);
  const indexOf = new Map(data?.router.shards.map((s, i) => [s.name, i]) ?? []);
  return (
    <div className="live-chips" data-testid={`${prefix}-chips`}>
      {side.shardsAsked.map((s) => {
        const i = indexOf.get(s.name);
        const color = data && i !== undefined ? toHex(data.colors[i]) : '#555';
        const a = ANSWER_TEXT[s.status];
        return (
          <span
            key={s.name}
            className="live-chip"
            data-status={s.status}
            data-testid={`${prefix}-chip-${s.name}`}
            title={`${s.name} · OpenSearch shard ${s.shard}${s.cells ? ` · ${formatInt(s.cells)} covering cells` : ''} · ${a.text}${s.reason ? `: ${s.reason}` : ''}`}
          >
            <i className="swatch" style={{ background: color }} />
            {s.name}
            <b aria-label={s.status}>{a.icon}</b>
          </span>
        );
      })}
    </div>
  );
}

/** routedByText says who chose a side's shards, in words. */
function routedByText(side: LiveSide): string {
  if (side.routedBy === 'client') return 'this server (sent routing=)';
  if (side.routedBy === 'cluster') {
    const c = side.cluster;
    const detail = c ? [c.cells !== null ? `${formatInt(c.cells)} cells` : '', c.micros !== null ? `${formatInt(c.micros)} µs` : '', c.agrees ? 'the same shards as the core' : 'NOT the shards the core names'].filter(Boolean).join(', ') : '';
    return `the cluster's search pipeline${detail ? ` (${detail})` : ''}`;
  }
  if (side.scope === 'cluster') return `nobody: the cluster's search pipeline did not narrow it${side.cluster?.reason ? ` (${side.cluster.reason})` : ''}, so every shard answered`;
  return 'nobody: every shard';
}

function Side({ side, title, prefix, n }: { side: LiveSide; title: string; prefix: string; n: number }) {
  const noun = useApp((s) => liveNoun(s.liveStatus.status));
  const sh = side.shards;
  return (
    <div className="live-side" data-testid={prefix} data-status={side.status} data-scope={side.scope}>
      <h4>
        {title} <span className={`live-badge small status-${side.status}`}>{side.status}</span>
      </h4>
      <dl>
        <dt>shards asked</dt>
        <dd data-testid={`${prefix}-shards`}>{formatShardCount(side.shardsAsked.length, n)}</dd>
        <dt>routing</dt>
        <dd className="mono live-routing" data-testid={`${prefix}-routing`} title={side.routing ?? 'no routing parameter: every shard'}>
          {side.routing ?? '(none)'}
        </dd>
        <dt title="Who chose the shards asked">routed by</dt>
        <dd data-testid={`${prefix}-routed-by`} data-by={side.routedBy ?? 'none'}>
          {routedByText(side)}
        </dd>
        <dt title="OpenSearch's own time for the search">took</dt>
        <dd data-testid={`${prefix}-took`}>{formatMs(side.took)}</dd>
        <dt title="The request as the API server timed it">wall</dt>
        <dd data-testid={`${prefix}-wall`}>{formatMs(side.wallMs)}</dd>
        <dt>{noun} found</dt>
        <dd data-testid={`${prefix}-total`}>{formatInt(side.total)}</dd>
        <dt title="OpenSearch's _shards: successful / total, skipped, failed">_shards</dt>
        <dd className={sh.failed > 0 || sh.successful < sh.total ? 'bad' : ''}>
          {sh.successful}/{sh.total} ok{sh.skipped ? ` · ${sh.skipped} skipped` : ''}
          {sh.failed ? ` · ${sh.failed} failed` : ''}
          {side.timedOut ? ' · timed out' : ''}
        </dd>
      </dl>
      <ShardChips side={side} prefix={prefix} />
    </div>
  );
}

/** RoutingMatch: whether the routed search asked exactly the shards the globe lights up for this circle. */
function RoutingMatch({ result }: { result: LiveResult }) {
  const asked = useApp(searchAsked);
  if (!asked || result.routed.routedBy == null) return null;
  const same = asked.routing === result.routed.routing;
  return (
    <p className={`small live-match ${same ? 'good' : 'bad'}`} data-testid="live-routing-match" data-match={String(same)}>
      {same
        ? `✓ The routed search asked exactly the shards the globe lights up${result.routed.routedBy === 'cluster' ? ', chosen by the cluster' : ''}.`
        : `✗ The globe lights up ${asked.routing}, the ${result.routed.routedBy === 'cluster' ? "cluster's search pipeline" : 'API'} routed to ${result.routed.routing}: their boundary files differ.`}
    </p>
  );
}

/** LiveIdentical: whether routed and all-shards gave the same answer (the panel's verdict, shown at its top); nothing when not compared. */
export function LiveIdentical({ result }: { result: LiveResult }) {
  const noun = useApp((s) => liveNoun(s.liveStatus.status));
  if (result.identical === null) return null;
  const partial = result.status === 'partial';
  return (
    <p className={`live-identical ${result.identical ? 'good' : 'bad'}`} data-testid="live-identical" data-identical={String(result.identical)}>
      {result.identical ? (
        <>
          <b>Identical ✓</b> same {formatInt(result.routed.total)} {noun}, the same top {result.routed.hits.length} in the same order, the same facet counts
          {partial && <span className="bad"> (but partial: a shard did not answer, so both may miss documents)</span>}
        </>
      ) : (
        <>
          <b>Not identical ✗</b> {result.differences.join('; ') || 'the answers differ'}
          {partial && <span> (a shard did not answer: the search is partial)</span>}
        </>
      )}
    </p>
  );
}

export function LiveCompare({ result }: { result: LiveResult }) {
  const n = result.boundary.numberOfShards;
  const u = result.unrouted;
  return (
    <section className="live-compare" aria-labelledby="live-compare-heading">
      {/* The sides' h4 headings sit under this one (axe heading-order; on a phone no h3 precedes them). */}
      <h3 className="visually-hidden" id="live-compare-heading">
        Routed and all-shards searches
      </h3>
      <div className="live-sides">
        <Side side={result.routed} title={result.routed.scope === 'routed' ? 'Routed' : result.routed.scope === 'cluster' ? 'Routed by the cluster' : 'Routed (no location: all)'} prefix="live-routed" n={n} />
        {u && <Side side={u} title="All shards" prefix="live-unrouted" n={n} />}
      </div>
      {result.ratio && u && (
        <p className="small dim live-ratio">
          Routed asked {result.routed.shardsAsked.length} of {u.shardsAsked.length} shards ({Math.round(result.ratio.shards * 100)}%)
          {result.ratio.took !== null ? `; took ${result.ratio.took.toFixed(2)}×` : ''} and wall time {result.ratio.wall.toFixed(2)}× of the all-shards search (one run each: see npm run bench:live for
          measured figures).
        </p>
      )}
      <RoutingMatch result={result} />
    </section>
  );
}
