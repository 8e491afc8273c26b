/** AboutPanel: how to read the globe and the ribbon. */
export function AboutPanel() {
  return (
    <div className="about-panel">
      <p>
        S2 projects the Earth onto a cube and numbers each face’s cells along a <b>Hilbert curve</b>. Every restaurant is placed by its level-10 cell (about 81 km²), and each shard holds one contiguous
        stretch of that curve, so a shard is a patch of the map.
      </p>
      <ul>
        <li>
          <b>Colours</b> are exact at level 10 at every zoom: a coarse cell that a boundary cuts shows both shards. Dark outlines mark where one shard ends and the next begins.
        </li>
        <li>
          <b>Level</b> sets the grid and the curve (drawn up to level 7). Turn on <i>hilbert</i> and follow it across a face: it never jumps inside a face, and the colours change along it in key order.
        </li>
        <li>
          White lines are <b>cube-face edges</b>. The curve only keeps places together within a face, which is why places far apart (Seattle and Honolulu) can share a shard, and why neighbours across
          an edge may not.
        </li>
        <li>
          <b>Cube net</b> unfolds the cube so each face’s curve is easy to follow; <b>Map</b> is equirectangular.
        </li>
        <li>
          The <b>ribbon</b> below is the whole key space from face 0 to face 5: shards as coloured ranges, boundaries as ticks, weight per cell as a density plot. Drag across it to highlight a stretch on
          the globe; double-click to go there.
        </li>
      </ul>
    </div>
  );
}
