/**
 * HoverReadout: what is under the pointer (lat/lon, cube face, level-10 token,
 * shard name and OpenSearch shard number). It subscribes to the store and
 * writes the DOM directly: the pointer never causes a React render.
 */
import { useEffect, useRef } from 'react';
import { useAppStore } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { formatLatLng, formatInt } from '../shell/format';
import { toHex } from '../shell/palette';
import type { Hover } from './viewSlice';

export function HoverReadout() {
  const appStore = useAppStore();
  const refs = {
    latlng: useRef<HTMLElement>(null),
    face: useRef<HTMLElement>(null),
    token: useRef<HTMLElement>(null),
    ordinal: useRef<HTMLElement>(null),
    shard: useRef<HTMLElement>(null),
    number: useRef<HTMLElement>(null),
    swatch: useRef<HTMLElement>(null),
  };
  useEffect(() => {
    const write = (h: Hover | null) => {
      const data = readyData(appStore.getState());
      const set = (k: keyof typeof refs, text: string) => {
        if (refs[k].current && refs[k].current!.textContent !== text) refs[k].current!.textContent = text;
      };
      set('latlng', h ? formatLatLng(h.lat, h.lng) : '—');
      set('face', h ? String(h.face) : '—');
      set('token', h ? h.token : '—');
      set('ordinal', h ? formatInt(h.ordinal) : '—');
      set('shard', h ? h.shardName : '—');
      set('number', h && data ? `${h.shardNumber} of ${data.file.numberOfShards}` : '—');
      if (refs.swatch.current) refs.swatch.current.style.background = h && data ? toHex(data.colors[h.shardIndex]) : 'transparent';
    };
    write(appStore.getState().hover);
    return appStore.subscribe((s) => s.hover, write);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section className="hover-readout" aria-label="Point under the cursor">
      <h3>Point under cursor</h3>
      <dl>
        <dt>lat / lon</dt>
        <dd ref={refs.latlng} data-testid="hover-latlng">—</dd>
        <dt>cube face</dt>
        <dd ref={refs.face} data-testid="hover-face">—</dd>
        <dt>token L10</dt>
        <dd ref={refs.token} data-testid="hover-token" className="mono">—</dd>
        <dt>curve ordinal</dt>
        <dd ref={refs.ordinal} className="mono">—</dd>
        <dt>shard</dt>
        <dd>
          <i ref={refs.swatch} className="swatch" />
          <span ref={refs.shard} data-testid="hover-shard">—</span>
        </dd>
        <dt>OpenSearch shard</dt>
        <dd ref={refs.number} data-testid="hover-shard-number">—</dd>
      </dl>
    </section>
  );
}
