/** ZoomControls: − and + buttons around the zoom percentage (kept current without React renders). */
import { useEffect, useRef } from 'react';
import { useAppStore } from '../shell/store';
import { formatZoom } from '../shell/format';

export function ZoomControls() {
  const appStore = useAppStore();
  const pct = useRef<HTMLOutputElement>(null);
  useEffect(() => {
    const write = (z: number) => {
      if (pct.current) pct.current.textContent = formatZoom(z);
    };
    write(appStore.getState().zoom);
    return appStore.subscribe((s) => s.zoom, write);
  }, []);
  const zoomBy = (f: number) => appStore.getState().zoomBy(f);
  return (
    <div className="zoom-controls segmented" role="group" aria-label="Zoom">
      <button type="button" aria-label="Zoom out" data-testid="zoom-out" onClick={() => zoomBy(1 / 1.5)}>
        −
      </button>
      <output ref={pct} data-testid="zoom-readout" title="Reset to 100%" onClick={() => appStore.getState().setZoom(1)}>
        100%
      </output>
      <button type="button" aria-label="Zoom in" data-testid="zoom-in" onClick={() => zoomBy(1.5)}>
        +
      </button>
    </div>
  );
}
