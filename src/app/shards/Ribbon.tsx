/**
 * Ribbon: the whole key space (every level-10 cell, face 0 to face 5) as one
 * strip: shards as colored ranges, boundaries as ticks, the weight per cell
 * (data/cells.csv) as a density plot. A second strip magnifies the stretch
 * that holds data, or the stretch brushed on either strip, which the globe
 * highlights. The whole strip holds the slot `ribbon-marks` (shell/Slot.tsx): the migration
 * feature's moving ranges.
 */
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { RibbonStrip } from './RibbonStrip';
import { Slot } from '../shell/Slot';
import { CELL_COUNT } from '../../core/index';

const FULL: [number, number] = [0, CELL_COUNT];

export function Ribbon() {
  const appStore = useAppStore();
  const ready = useApp((s) => readyData(s) !== null);
  const brushed = useApp((s) => s.brush !== null);
  const unit = useApp((s) => (s.cells ? (s.cells.unit ?? 'restaurants + dishes') : null));
  if (!ready) return null;
  return (
    <section className="ribbon" aria-label="Hilbert ribbon" data-testid="ribbon">
      <h3>
        Hilbert ribbon <span className="dim">· all 6,291,456 level-10 cells in key order · {unit ? `density: ${unit} per cell (log)` : 'loading cell weights…'} · drag to brush, double-click to go there</span>
      </h3>
      <RibbonStrip range="all" full={FULL}>
        <Slot name="ribbon-marks" />
      </RibbonStrip>
      <div className="ribbon-detail">
        {brushed && (
          <button type="button" className="ribbon-clear" onClick={() => appStore.getState().setBrush(null)} data-testid="ribbon-clear">
            clear brush ×
          </button>
        )}
        <RibbonStrip range="detail" full={FULL} />
      </div>
    </section>
  );
}
