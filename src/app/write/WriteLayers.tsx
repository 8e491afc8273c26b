/**
 * WriteLayers: Write mode's parts of the scene: click-to-place and the pins.
 * The shell mounts it on the globe (src/app/featureViews.ts) only while Write mode is
 * on, so its chunk loads only then.
 */
import { WritePicker } from './WritePicker';
import { WriteMarker } from './WriteMarker';

export function WriteLayers() {
  return (
    <>
      <WritePicker />
      <WriteMarker />
    </>
  );
}
