/** LevelControl: the S2 level drawn (0 to 10) and the readout "drawn at L4 · 1,536 cells". */
import { useAppStore, useApp } from '../shell/store';
import { formatLevelReadout } from '../shell/format';
import { MAX_LEVEL } from '../shell/url';
import { MAX_CURVE_LEVEL } from './HilbertCurve';

export function LevelControl() {
  const appStore = useAppStore();
  const level = useApp((s) => s.level);
  const curve = useApp((s) => s.layers.hilbert);
  const setLevel = appStore.getState().setLevel;
  return (
    <section className="level-control" aria-label="Cell level">
      <label htmlFor="level-input">Cell level</label>
      <div className="level-row">
        <button type="button" aria-label="Coarser level" onClick={() => setLevel(level - 1)} disabled={level === 0}>
          −
        </button>
        <input id="level-input" data-testid="level-input" type="range" min={0} max={MAX_LEVEL} step={1} value={level} onChange={(e) => setLevel(Number(e.target.value))} />
        <button type="button" aria-label="Finer level" onClick={() => setLevel(level + 1)} disabled={level === MAX_LEVEL}>
          +
        </button>
      </div>
      <output data-testid="level-readout" htmlFor="level-input">
        {formatLevelReadout(level)}
      </output>
      {curve && level > MAX_CURVE_LEVEL && <small className="note">Hilbert curve drawn at L{MAX_CURVE_LEVEL}</small>}
    </section>
  );
}
