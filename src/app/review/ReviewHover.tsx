/**
 * ReviewHover: during a boundary review, a label beside the pointer on the
 * globe saying what happens to the cell under it: "moves: from → to" with the
 * range and its documents when its owner changes, else which shard it stays
 * with. Written to the DOM from store subscriptions (the pointer never causes
 * a React render).
 */
import { shallow } from 'zustand/shallow';
import { useEffect, useRef } from 'react';
import { useAppStore } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { moveAt } from './review';
import { formatInt } from '../shell/format';
import '../ui/review.css';

export function ReviewHover() {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const write = () => {
      const el = box.current;
      if (!el) return;
      const s = appStore.getState();
      const h = s.hover;
      const data = readyData(s);
      const c = s.candidate;
      if (!h || !data || !c || !s.reviewDiff || !frame.pointer.inside) {
        el.style.display = 'none';
        return;
      }
      const m = moveAt(s.reviewDiff.moves, h.ordinal);
      const stay = c.router.shards[c.router.readIndexOfOrdinal(h.ordinal)].name;
      el.dataset.moving = m ? 'true' : 'false';
      el.textContent = m
        ? `moves: ${m.from} → ${m.to} · ${m.start}…${m.end ?? 'end'} · ${formatInt(m.restaurants + m.dishes)} documents`
        : `stays: ${data.router.shards[data.router.readIndexOfOrdinal(h.ordinal)].name}${stay !== h.shardName ? ` (${stay} in the candidate)` : ''}`;
      el.style.display = 'block';
      el.style.transform = `translate(${Math.round(frame.pointer.x + 16)}px, ${Math.round(frame.pointer.y + 14)}px)`;
    };
    write();
    return appStore.subscribe((s) => [s.hover, s.reviewDiff, s.candidate], write, { equalityFn: shallow });
  }, []);
  return <div ref={box} className="review-hover" data-testid="review-hover" aria-live="off" />;
}
