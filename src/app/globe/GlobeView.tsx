/**
 * GlobeView: the globe canvas with its controls laid over it. The features' parts (scene layers,
 * overlays, controls, layer legends) come in as props (shell/App.tsx passes the lists of
 * shell/panels.ts): the kit mounts what it is given and imports no feature.
 */
import type { ComponentType } from 'react';
import { GlobeCanvas } from './GlobeCanvas';
import { LevelControl } from './LevelControl';
import { LayerToggles, type LayerLegend } from './LayerToggles';
import { FlattenControl } from './FlattenControl';
import { ZoomControls } from './ZoomControls';
import { HoverReadout } from './HoverReadout';
import { ControlsFold } from './ControlsFold';

export interface GlobeViewProps {
  /** Scene layers, in drawing order, mounted in the canvas after the kit's own. */
  scene: readonly ComponentType[];
  /** HTML laid over the globe, after the canvas. */
  overlays: readonly ComponentType[];
  /** Controls in the top-left corner, after the level and layer switches. */
  controls: readonly ComponentType[];
  /** Legends shown under the layer switches while their layer is on. */
  legends: readonly LayerLegend[];
}

export function GlobeView({ scene, overlays, controls, legends }: GlobeViewProps) {
  return (
    <section className="globe-view" aria-label="Shard globe">
      {/* The outline's level under the page's h1: the boxes' h3 headings follow it (axe heading-order). */}
      <h2 className="visually-hidden">Shard globe</h2>
      <GlobeCanvas layers={scene} />
      {overlays.map((Overlay, i) => (
        <Overlay key={i} />
      ))}
      <div className="overlay top-left">
        {/* One button on a phone (ControlsFold), the boxes themselves on a wider screen. */}
        <ControlsFold>
          <LevelControl />
          <LayerToggles legends={legends} />
          {controls.map((Control, i) => (
            <Control key={i} />
          ))}
        </ControlsFold>
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
