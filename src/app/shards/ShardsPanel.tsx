/**
 * ShardsPanel: the boundary file's shards in key order (color, routing name,
 * OpenSearch shard number, first token of the range, weight). Hovering a row
 * highlights the shard on the globe; clicking glides to its heaviest cell.
 */
import { useEffect, useRef } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { toHex } from '../shell/palette';
import { formatCompact } from '../shell/format';
import { cellToken, cellFromOrdinal } from '../../core/index';
import { flyToShard } from '../shell/flyToShard';

export function ShardsPanel() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const body = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    // Mark the row of the shard under the pointer (globe or ribbon) without re-rendering.
    let marked = -1;
    return appStore.subscribe(
      (s) => (s.highlight >= 0 ? s.highlight : (s.hover?.shardIndex ?? -1)),
      (i) => {
      if (i === marked || !body.current) return;
      body.current.children[marked]?.classList.remove('active');
      body.current.children[i]?.classList.add('active');
      marked = i;
      },
    );
  }, []);
  if (!data) return null;
  const total = data.weights?.reduce((a, b) => a + b, 0) ?? 0;
  return (
    <div className="shards-panel">
      <p className="panel-intro">
        <b>{data.file.numberOfShards}</b> shards of index <code>{data.file.index}</code>, in key order along the Hilbert curve. Each row is one contiguous range of the curve.
      </p>
      <table className="shard-table">
        <thead>
          <tr>
            <th>
              <span className="visually-hidden">colour</span>
            </th>
            <th>name</th>
            <th title="The OpenSearch shard the name's routing hash lands on">#</th>
            <th title="The first level-10 cell of the range">starts at</th>
            <th title={data.weightUnit}>weight</th>
          </tr>
        </thead>
        <tbody ref={body} onMouseLeave={() => appStore.getState().setHighlight(-1)}>
          {data.router.shards.map((s, i) => (
            <tr key={s.name} onMouseEnter={() => appStore.getState().setHighlight(i)} onClick={() => flyToShard(appStore, i)} data-testid={`shard-row-${s.name}`}>
              <td>
                <i className="swatch" style={{ background: toHex(data.colors[i]) }} title={s.name} />
              </td>
              <td className="mono">{s.name}</td>
              <td className="num">{s.shard}</td>
              <td className="mono dim">{i === 0 ? 'face 0' : cellToken(cellFromOrdinal(data.router.starts[i]))}</td>
              <td className="num">{data.weights ? `${formatCompact(data.weights[i])} · ${((100 * data.weights[i]) / total).toFixed(1)}%` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="dim small">
        {data.source} · version {data.file.version} · hash <span className="mono">{data.file.hash.slice(0, 12)}…</span>
      </p>
    </div>
  );
}
