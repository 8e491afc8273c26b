/**
 * WriteMarker: pins on the globe for Write mode: the draft (where the next
 * write goes) and the restaurant written last (until deleted). DOM elements
 * placed every frame from the store (getState in useFrame): the camera never
 * goes through React state. Test hooks: write-pin-draft, write-pin-placed.
 */
import { useEffect, useRef } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import { useAppStore } from '../shell/store';
import { projectLatLng } from '../globe/view';
import { writing } from './availability';
import '../ui/write.css';

type Pin = 'draft' | 'placed';

export function WriteMarker() {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const el = useThree((s) => s.gl.domElement);
  const pins = useRef<Record<Pin, HTMLDivElement | null>>({ draft: null, placed: null });
  useEffect(() => {
    const made: HTMLDivElement[] = [];
    for (const kind of ['placed', 'draft'] as Pin[]) {
      const div = document.createElement('div');
      div.className = `write-pin write-pin-${kind}`;
      div.setAttribute('aria-hidden', 'true');
      div.dataset.testid = `write-pin-${kind}`;
      el.parentElement?.appendChild(div);
      pins.current[kind] = div;
      made.push(div);
    }
    return () => made.forEach((d) => d.remove());
  }, [el]);

  useFrame(() => {
    const s = appStore.getState();
    const on = writing(s);
    const place = (kind: Pin, at: { lat: number; lng: number } | null | undefined) => {
      const pin = pins.current[kind];
      if (!pin) return;
      const p = on && at ? projectLatLng(frame.view, at.lat, at.lng) : null;
      if (!p || !p.visible) {
        pin.style.display = 'none';
        return;
      }
      pin.style.display = 'block';
      pin.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px)`;
    };
    place('draft', s.writeDraft);
    place('placed', s.writeRequest.placed);
  });
  return null;
}
