/**
 * LiveTimings: each asked shard's time for the last search (OpenSearch's
 * profile API: query, rewrite, aggregation and fetch time on the shard, no
 * network or merge), as chips in the shard's color, and a rolling p50 / p99
 * per shard over the recent searches (both sides of each answer; nearest-rank,
 * shell/latencyStats.ts), slowest p99 first.
 *
 * Test hooks: live-timings; live-timing-chip-<name> (data-ms, data-node);
 * live-latency-<name> (data-n, data-p50, data-p99).
 */
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { toHex } from '../shell/palette';
import { formatMs } from '../shell/format';
import { shardLatencies, LATENCY_WINDOW } from '../shell/latencyStats';
import type { LiveResult } from '../api/search';

export function LiveTimings({ result }: { result: LiveResult }) {
  const data = useApp(readyData);
  const history = useApp((s) => s.liveLatency);
  const times = result.routed.shardTimes;
  const indexOf = new Map(data?.router.shards.map((s, i) => [s.name, i]) ?? []);
  const color = (name: string) => {
    const i = indexOf.get(name);
    return data && i !== undefined ? toHex(data.colors[i]) : '#555';
  };
  const stats = data ? shardLatencies(history, data.router.shards.map((s) => s.name)).sort((a, b) => b.p99 - a.p99 || b.p50 - a.p50) : [];
  return (
    <section className="live-timings" data-testid="live-timings">
      <h4 title="OpenSearch's profile API: the time each shard spent on the query, its rewrite, the aggregations and the fetch (no network, no merge on the coordinating node)">Shard times · last search</h4>
      {times === undefined ? (
        <p className="small dim">The API did not report shard times (it does when asked with profile=1).</p>
      ) : (
        <div className="live-chips">
          {times.map((t) => (
            <span key={t.shard} className="live-chip" data-testid={`live-timing-chip-${t.name}`} data-ms={t.ms} data-node={t.node ?? ''} title={`${t.name} · OpenSearch shard ${t.shard}${t.node ? ` on ${t.node}` : ''}`}>
              <i className="swatch" style={{ background: color(t.name) }} />
              {t.name} <b>{formatMs(t.ms)}</b>
            </span>
          ))}
        </div>
      )}
      {stats.length > 0 && (
        <table className="latency-table">
          <caption className="small dim" style={{ captionSide: 'top', textAlign: 'left' }}>
            Recent searches (last {LATENCY_WINDOW} times per shard, routed and all-shards sides), slowest first. Colour the globe by <b>latency</b> to see where they live.
          </caption>
          <thead>
            <tr>
              <th>shard</th>
              <th>n</th>
              <th>p50</th>
              <th>p99</th>
            </tr>
          </thead>
          <tbody>
            {stats.map((s) => (
              <tr key={s.name} data-testid={`live-latency-${s.name}`} data-n={s.n} data-p50={s.p50} data-p99={s.p99}>
                <td>
                  <i className="swatch" style={{ background: color(s.name) }} /> {s.name}
                </td>
                <td>{s.n}</td>
                <td>{formatMs(s.p50)}</td>
                <td>{formatMs(s.p99)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
