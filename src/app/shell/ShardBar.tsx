/**
 * ShardBar: one segment per shard in key order, its width proportional to
 * the shard's weight (restaurants + dishes from the boundary file; the size
 * of its range when the file has no counts). It is the globe's legend (in
 * IndexBar) and the radius explorer's result bar (asked segments lit, the
 * others dimmed). Hovering a segment highlights the shard on the globe;
 * hovering the globe marks its segment; clicking glides to the shard.
 *
 * The shard's name shows in a tip above the bar while its segment is hovered or focused (a
 * narrow segment cannot show it inside; test id `${testId}-tip`).
 *
 * Highlight and asked flags are written straight to the DOM from store
 * subscriptions: a slider drag or a pointer move never re-renders it.
 */
import { shallow } from 'zustand/shallow';
import { useEffect, useRef } from 'react';
import { useAppStore, useApp, type AppState } from './store';
import { readyData } from './dataSlice';
import { toHex, labelColor } from './palette';
import { formatCompact } from './format';
import { flyToShard } from './flyToShard';

export interface ShardBarProps {
  /** Test id of the bar. */
  testId: string;
  /** Test id prefix of each segment (followed by the shard's name). */
  segmentTestIdPrefix: string;
  /** The shards asked (key-order indices), or null for none; when given, segments carry data-asked and the unasked dim. */
  asked?: (s: AppState) => readonly number[] | null;
}

export function ShardBar({ testId, segmentTestIdPrefix, asked }: ShardBarProps) {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const bar = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    // The name tip follows the highlight (a segment, a table row or the ribbon hovered).
    const showTip = (i: number) => {
      const el = bar.current;
      const t = tip.current;
      const d = readyData(appStore.getState());
      if (!el || !t) return;
      const seg = el.children[i] as HTMLElement | undefined;
      if (!seg || !d) {
        t.hidden = true;
        return;
      }
      t.textContent = d.router.shards[i].name;
      t.style.background = toHex(d.colors[i]);
      t.style.color = labelColor(d.colors[i]);
      t.hidden = false;
      const x = seg.offsetLeft + seg.offsetWidth / 2 - t.offsetWidth / 2;
      t.style.transform = `translateX(${Math.max(0, Math.min(el.clientWidth - t.offsetWidth, x))}px)`;
    };
    showTip(appStore.getState().highlight);
    return appStore.subscribe((s) => s.highlight, showTip);
  }, [data]);
  useEffect(() => {
    let marked = -1;
    let lastAsked: readonly number[] | null | undefined;
    const watched = (s: AppState) => [s.highlight >= 0 ? s.highlight : (s.hover?.shardIndex ?? -1), asked ? asked(s) : null] as const;
    const update = ([i, a]: ReturnType<typeof watched>) => {
      const el = bar.current;
      if (!el) return;
      if (i !== marked) {
        el.children[marked]?.classList.remove('active');
        el.children[i]?.classList.add('active');
        el.classList.toggle('has-active', i >= 0);
        marked = i;
      }
      if (!asked) return;
      if (a === lastAsked) return;
      lastAsked = a;
      const set = new Set(a ?? []);
      for (let k = 0; k < el.children.length; k++) {
        const seg = el.children[k] as HTMLElement;
        const on = set.has(k);
        seg.dataset.asked = String(on);
        seg.classList.toggle('asked', on);
      }
      el.classList.toggle('has-asked', !!a);
    };
    update(watched(appStore.getState()));
    return appStore.subscribe(watched, update, { equalityFn: shallow });
  }, [asked, data]);
  if (!data) return null;
  const sizes = data.weights ?? data.router.shards.map((_, i) => data.router.starts[i + 1] - data.router.starts[i]);
  return (
    <div className="shard-bar">
      <div className="index-segments" ref={bar} onMouseLeave={() => appStore.getState().setHighlight(-1)} data-testid={testId}>
        {data.router.shards.map((s, i) => (
          <button
            key={s.name}
            type="button"
            className="index-segment"
            style={{ flexGrow: Math.max(sizes[i], 1e-9), background: toHex(data.colors[i]), color: labelColor(data.colors[i]) }}
            title={`${s.name} · OpenSearch shard ${s.shard}${data.weights ? ` · ${formatCompact(data.weights[i])} ${data.weightUnit}` : ''}`}
            data-testid={`${segmentTestIdPrefix}${s.name}`}
            data-shard={s.name}
            {...(asked ? { 'data-asked': 'false' } : {})}
            onMouseEnter={() => appStore.getState().setHighlight(i)}
            onFocus={() => appStore.getState().setHighlight(i)}
            onBlur={() => appStore.getState().setHighlight(-1)}
            onClick={() => flyToShard(appStore, i)}
          >
            <span>{s.name}</span>
          </button>
        ))}
      </div>
      <span className="shard-bar-tip" ref={tip} hidden data-testid={`${testId}-tip`} />
    </div>
  );
}
