/**
 * IndexBar: the legend, one segment per shard in key order, its width
 * proportional to the shard's weight (restaurants + dishes from the boundary
 * file; the size of its range when the file has no counts). Hovering a segment
 * highlights the shard on the globe; hovering the globe marks its segment.
 */
import { useEffect, useRef } from 'react';
import { appStore, useApp } from '../store';
import { readyData } from '../store/dataSlice';
import { toHex, srgbToOklab } from '../lib/palette';
import { formatCompact } from '../lib/format';
import { flyToShard } from '../lib/flyToShard';

export function IndexBar() {
  const data = useApp(readyData);
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let marked = -1;
    return appStore.subscribe((s) => {
      const i = s.highlight >= 0 ? s.highlight : (s.hover?.shardIndex ?? -1);
      if (i === marked || !bar.current) return;
      bar.current.children[marked]?.classList.remove('active');
      bar.current.children[i]?.classList.add('active');
      bar.current.classList.toggle('has-active', i >= 0);
      marked = i;
    });
  }, []);
  if (!data) return null;
  const sizes = data.weights ?? data.router.shards.map((_, i) => data.router.starts[i + 1] - data.router.starts[i]);
  return (
    <section className="index-bar" aria-label="Index shards">
      <h3>
        Index shards <span className="dim">· width ∝ {data.weights ? 'restaurants + dishes' : 'cells in range'}</span>
      </h3>
      <div className="index-segments" ref={bar} onMouseLeave={() => appStore.getState().setHighlight(-1)} data-testid="index-bar">
        {data.router.shards.map((s, i) => (
          <button
            key={s.name}
            type="button"
            className="index-segment"
            style={{ flexGrow: Math.max(sizes[i], 1e-9), background: toHex(data.colors[i]), color: srgbToOklab(data.colors[i])[0] > 0.62 ? '#0b1220' : '#f4f7fc' }}
            title={`${s.name} · OpenSearch shard ${s.shard}${data.weights ? ` · ${formatCompact(data.weights[i])} restaurants + dishes` : ''}`}
            data-testid={`segment-${s.name}`}
            onMouseEnter={() => appStore.getState().setHighlight(i)}
            onFocus={() => appStore.getState().setHighlight(i)}
            onBlur={() => appStore.getState().setHighlight(-1)}
            onClick={() => flyToShard(i)}
          >
            <span>{s.name}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
