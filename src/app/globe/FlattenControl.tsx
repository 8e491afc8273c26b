/** FlattenControl: globe, equirectangular map or unfolded cube (an animated morph between them). */
import { useAppStore, useApp } from '../shell/store';
import { FLATTEN_MODES, type FlattenMode } from '../shell/url';

const LABELS: Record<FlattenMode, string> = { globe: 'Globe', map: 'Map', net: 'Cube net' };

export function FlattenControl() {
  const appStore = useAppStore();
  const mode = useApp((s) => s.flatten);
  return (
    <div className="flatten-control segmented" role="group" aria-label="Flatten">
      {FLATTEN_MODES.map((m) => (
        <button key={m} type="button" aria-pressed={mode === m} data-testid={`flatten-${m}`} onClick={() => appStore.getState().setFlatten(m)}>
          {LABELS[m]}
        </button>
      ))}
    </div>
  );
}
