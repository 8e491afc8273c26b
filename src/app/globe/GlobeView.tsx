/** GlobeView: the globe canvas with its controls laid over it. */
import { GlobeCanvas } from './GlobeCanvas';
import { LevelControl } from './LevelControl';
import { LayerToggles } from './LayerToggles';
import { FlattenControl } from './FlattenControl';
import { ZoomControls } from './ZoomControls';
import { HoverReadout } from './HoverReadout';
import { ReviewHover } from '../shell/panels';
import { ColourBy } from '../nodes/ColourBy';

export function GlobeView() {
  return (
    <section className="globe-view" aria-label="Shard globe">
      <GlobeCanvas />
      <ReviewHover />
      <div className="overlay top-left">
        <LevelControl />
        <LayerToggles />
        <ColourBy />
      </div>
      <div className="overlay top-right">
        <FlattenControl />
      </div>
      <div className="overlay bottom-left">
        <ZoomControls />
        <p className="hint">drag to rotate · wheel to zoom · double-click to centre</p>
      </div>
      <div className="overlay bottom-right">
        <HoverReadout />
      </div>
    </section>
  );
}
