/** LayerToggles: one switch per layer (shards, hilbert, grid, land, labels, spin, requests), and under them the legends it is given (the Requests layer's) while their layer is on. */
import { useAppStore, useApp } from '../shell/store';
import { LAYERS, type Layer } from '../shell/url';
import type { ComponentType } from 'react';

/** A legend shown under the layer switches while its layer is on. */
export interface LayerLegend {
  layer: Layer;
  Component: ComponentType;
}

const TITLES: Record<Layer, string> = {
  shards: 'Fill every level-10 cell with its shard’s colour',
  hilbert: 'The Hilbert curve through the cell centres, in key order',
  grid: 'Cell edges at the chosen level; cube-face edges in white',
  land: 'Coastlines (Natural Earth 1:50m)',
  labels: 'The sample cities, with a dot in their shard’s colour',
  spin: 'Slow rotation (stops when you drag)',
  requests: 'Request rate per level-10 cell over a workload (searches whose circle covers the cell), and the hot ranges',
};

export function LayerToggles({ legends }: { legends: readonly LayerLegend[] }) {
  const appStore = useAppStore();
  const layers = useApp((s) => s.layers);
  return (
    <section className="layer-toggles" aria-label="Layers">
      <h3>Layers</h3>
      <div className="chips">
        {LAYERS.map((l) => (
          <button key={l} type="button" className="chip" aria-pressed={layers[l]} data-testid={`layer-${l}`} title={TITLES[l]} onClick={() => appStore.getState().toggleLayer(l)}>
            {l}
          </button>
        ))}
      </div>
      {legends.map(({ layer, Component }) => layers[layer] && <Component key={layer} />)}
    </section>
  );
}
