/**
 * LiveMeasure: the Measure action. One search's wall time misleads (the first
 * New York search of a cold cluster took longer routed than on all shards);
 * Measure runs the current search many times per plan on the server (POST
 * /api/measure, src/server/measure.ts), discards the warm-up runs and says
 * so, and shows what holds: p50 / p99 wall time one at a time, OpenSearch CPU
 * per search and the searches per second each plan sustains with a few in
 * flight, each beside its all-shards baseline with the gain (above 1: routed
 * is better), and the machine's load average from the node stats beside it.
 * Where the index's search pipeline routes (the geoshard plugin), a third way:
 * the same search sent with no routing, routed by the cluster, with its gain.
 *
 * Test hooks: live-measure (data-phase idle | running | done | failed,
 * data-stale true when the answer is for another search), live-measure-button,
 * live-measure-warmup, live-measure-row-<p50 | p99 | cpu | throughput> (data-routed,
 * data-all, data-gain; where the cluster routes too, data-cluster and data-cluster-gain),
 * live-measure-load, live-measure-identical
 * (data-identical), live-measure-failure (data-kind).
 */
import { useAppStore, useApp } from '../shell/store';
import { formatMs } from '../shell/format';
import { liveSearchUrl } from '../api/search';
import { MEASURE_RUNS, MEASURE_CONCURRENCY, type MeasureAnswer } from '../api/measure';
import { liveQueryOf } from './liveRunner';

const gainText = (g: number | null) => (g === null ? '—' : `${g.toFixed(g < 10 ? 2 : 1)}×`);
const loadText = (l: MeasureAnswer['load']['before']) => (l ? l['1m'].toFixed(2) : 'unknown');

type Figures = { routed: number | null; all: number | null; gain: number | null; cluster?: { value: number | null; gain: number | null } };

function Row({ id, label, routed, all, gain, cluster, fmt }: Figures & { id: string; label: string; fmt: (x: number) => string }) {
  return (
    <tr data-testid={`live-measure-row-${id}`} data-routed={routed ?? ''} data-all={all ?? ''} data-gain={gain ?? ''} {...(cluster ? { 'data-cluster': cluster.value ?? '', 'data-cluster-gain': cluster.gain ?? '' } : {})}>
      <td>{label}</td>
      <td>{routed === null ? '—' : fmt(routed)}</td>
      {cluster && <td>{cluster.value === null ? '—' : fmt(cluster.value)}</td>}
      <td>{all === null ? '—' : fmt(all)}</td>
      <td>
        <b>{gainText(gain)}</b>
        {cluster && <> · <b>{gainText(cluster.gain)}</b></>}
      </td>
    </tr>
  );
}

function MeasureTable({ a }: { a: MeasureAnswer }) {
  const perS = (x: number) => `${x.toFixed(1)}/s`;
  const c = a.cluster;
  return (
    <>
      <p className="small" data-testid="live-measure-warmup">
        {a.warmup.note}
      </p>
      <table className="latency-table">
        <thead>
          <tr>
            <th />
            <th>{c ? 'routed by this server' : 'routed'} · {a.routed.shardsAsked} shards</th>
            {c && <th>routed by the cluster · {c.side.shardsAsked.toFixed(c.side.shardsAsked % 1 === 0 ? 0 : 2)} shards</th>}
            <th>all · {a.all.shardsAsked} shards</th>
            <th title="above 1: routed is better (all ÷ routed for times and CPU, routed ÷ all for searches per second)">gain{c ? ' (server · cluster)' : ''}</th>
          </tr>
        </thead>
        <tbody>
          <Row id="p50" label={`wall p50 (${a.routed.latency.n} runs)`} routed={a.routed.latency.p50Ms} all={a.all.latency.p50Ms} gain={a.gain.p50} {...(c ? { cluster: { value: c.side.latency.p50Ms, gain: c.gain.p50 } } : {})} fmt={formatMs} />
          <Row id="p99" label="wall p99" routed={a.routed.latency.p99Ms} all={a.all.latency.p99Ms} gain={a.gain.p99} {...(c ? { cluster: { value: c.side.latency.p99Ms, gain: c.gain.p99 } } : {})} fmt={formatMs} />
          <Row id="cpu" label="OpenSearch CPU / search" routed={a.routed.cpuMsPerSearch} all={a.all.cpuMsPerSearch} gain={a.gain.cpu} {...(c ? { cluster: { value: c.side.cpuMsPerSearch, gain: c.gain.cpu } } : {})} fmt={formatMs} />
          <Row id="throughput" label={`searches/s, ${a.concurrency} in flight`} routed={a.routed.searchesPerS} all={a.all.searchesPerS} gain={a.gain.throughput} {...(c ? { cluster: { value: c.side.searchesPerS, gain: c.gain.throughput } } : {})} fmt={perS} />
        </tbody>
      </table>
      <p className="small" data-testid="live-measure-identical" data-identical={String(a.identical)}>
        {a.identical ? 'Every routed / all-shards pair gave the identical answer ✓' : `Answers differ ✗: ${a.differences.join('; ')}`}
        {a.partialRuns > 0 && ` · ${a.partialRuns} partial search(es): some shard did not answer, so the figures may flatter one plan`}
      </p>
      <p className="small dim" data-testid="live-measure-load" data-load={a.load.after?.['1m'] ?? ''}>
        Machine load (1-minute average, node stats): {loadText(a.load.before)} before, {loadText(a.load.after)} after
        {a.load.processors !== null ? ` on ${a.load.processors} processors` : ''}, {a.load.nodes} node{a.load.nodes === 1 ? '' : 's'}; {(a.ms / 1000).toFixed(1)} s. A busy machine slows both plans alike (they alternate);
        CPU per search is what a search costs the node whatever else runs.
      </p>
      <p className="small dim">{a.method}</p>
    </>
  );
}

export function LiveMeasure() {
  const appStore = useAppStore();
  const m = useApp((s) => s.liveMeasure);
  const url = useApp((s) => liveSearchUrl(liveQueryOf(s)));
  const noCircle = useApp((s) => s.noLocation || !s.searchCentre);
  const running = m.phase === 'running';
  const stale = m.url !== null && m.url !== url;
  return (
    <section className="live-measure" data-testid="live-measure" data-phase={m.phase} data-stale={String(stale)}>
      <h4>Measure</h4>
      <p className="small dim">
        One search's time misleads (cold caches, a busy node). Measure runs this search {MEASURE_RUNS.default} times per plan, routed and on all shards, alternating; discards the warm-up; then
        again with {MEASURE_CONCURRENCY.default} in flight.
      </p>
      <button type="button" data-testid="live-measure-button" disabled={running || noCircle} onClick={() => appStore.getState().measureLive()} title={noCircle ? 'Measure needs a circle' : undefined}>
        {running ? 'Measuring…' : m.phase === 'done' || m.phase === 'failed' ? 'Measure again' : 'Measure'}
      </button>
      {stale && m.phase !== 'running' && <span className="small dim"> (the figures below are for the previous search)</span>}
      {m.failure && (
        <p className="live-failure small" data-testid="live-measure-failure" data-kind={m.failure.kind}>
          {m.failure.message}
        </p>
      )}
      {m.result && <MeasureTable a={m.result} />}
    </section>
  );
}
