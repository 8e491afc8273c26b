/**
 * ColorBy: the globe's "color regions by" choice (shard, node, no started
 * copy, latency) and the legend of the chosen mode, laid over the globe. The
 * red stripes (regions whose documents are missing from the current live
 * answer) are explained whenever some region carries them.
 *
 * Test hooks: color-by-<mode> (aria-pressed); region-paint (data-by, and
 * data-marked: the marked shards' names in key order, comma-joined);
 * region-legend-node-<name>; region-legend-latency (data-min, data-max, ms).
 */
import { useAppStore, useApp } from '../shell/store';
import { COLOR_BY, type ColorBy as Mode } from '../globe/regionPaint';
import { shardLatencies } from '../shell/latencyStats';
import { formatMs } from '../shell/format';
import { clusterLayout, missingShards } from './nodesSlice';
import { COPY_COLORS, LATENCY_STOPS, NO_DATA, NO_NODE, latencyDomain, nodeColor } from './regionColors';
import '../ui/nodes.css';

const TITLES: Record<Mode, { label: string; title: string }> = {
  shard: { label: 'shard', title: 'Each region in its shard’s colour' },
  node: { label: 'node', title: 'Each region in the colour of the node that holds its shard’s primary (live status)' },
  'no-copy': { label: 'no copy', title: 'Regions whose shard has no started copy (red), or a copy not started (amber)' },
  latency: { label: 'latency', title: 'Each region by its shard’s recent p50 search time (Live searches, profiled)' },
};

function NodeLegend() {
  // The status's own array: a stable reference until a new status arrives.
  const nodes = useApp((s) => clusterLayout(s).nodes);
  if (!nodes) return <p className="small dim">No node list yet: open the Nodes tab (or switch Live on) to read the cluster.</p>;
  return (
    <ul className="region-legend">
      {nodes.map((n, i) => (
        <li key={n.name} data-testid={`region-legend-node-${n.name}`} data-up={String(n.up)}>
          <i className="swatch" style={{ background: nodeColor(i) }} />
          {n.name}
          {!n.up && <span className="bad"> · left</span>}
        </li>
      ))}
      <li>
        <i className="swatch" style={{ background: NO_NODE }} />
        primary on no node
      </li>
    </ul>
  );
}

function CopyLegend() {
  return (
    <ul className="region-legend">
      <li>
        <i className="swatch" style={{ background: COPY_COLORS.none }} />
        no started copy: not searchable
      </li>
      <li>
        <i className="swatch" style={{ background: COPY_COLORS.degraded }} />a copy not started
      </li>
      <li>
        <i className="swatch" style={{ background: COPY_COLORS.ok }} />
        every copy started
      </li>
    </ul>
  );
}

function LatencyLegend() {
  const history = useApp((s) => s.liveLatency);
  const data = useApp((s) => (s.data.status === 'ready' ? s.data : null));
  const stats = data ? shardLatencies(history, data.router.shards.map((x) => x.name)) : [];
  const d = latencyDomain(stats);
  if (!d) return <p className="small dim">No shard times yet: switch Live on and search (each search is profiled).</p>;
  return (
    <div className="region-legend" data-testid="region-legend-latency" data-min={d.min} data-max={d.max}>
      <div className="latency-ramp" style={{ background: `linear-gradient(90deg, ${LATENCY_STOPS.join(', ')})` }} />
      <p className="small latency-ends">
        <span>{formatMs(d.min)}</span>
        <span className="dim">p50, {stats.length} shards</span>
        <span>{formatMs(d.max)}</span>
      </p>
      <p className="small dim">
        <i className="swatch" style={{ background: NO_DATA }} /> no time yet
      </p>
    </div>
  );
}

export function ColorBy() {
  const appStore = useAppStore();
  const by = useApp((s) => s.colorBy);
  const markedText = useApp((s) => {
    const missing = missingShards(s);
    return s.data.status === 'ready' ? s.data.router.shards.map((x) => x.name).filter((n) => missing.has(n)).join(',') : '';
  });
  const marked = markedText ? markedText.split(',') : [];
  return (
    <section className="color-by" aria-label="Colour regions by" data-testid="region-paint" data-by={by} data-marked={markedText}>
      <h3>Colour regions by</h3>
      <div className="chips">
        {COLOR_BY.map((m) => (
          <button key={m} type="button" className="chip" aria-pressed={by === m} data-testid={`color-by-${m}`} title={TITLES[m].title} onClick={() => appStore.getState().setColorBy(m)}>
            {TITLES[m].label}
          </button>
        ))}
      </div>
      {by === 'node' && <NodeLegend />}
      {by === 'no-copy' && <CopyLegend />}
      {by === 'latency' && <LatencyLegend />}
      {marked.length > 0 && (
        <p className="small region-marked">
          <i className="swatch striped" /> missing from the live answer: {marked.join(', ')}
        </p>
      )}
    </section>
  );
}
