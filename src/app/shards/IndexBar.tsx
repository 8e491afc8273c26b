/**
 * IndexBar: the legend, one segment per shard in key order (ShardBar), its
 * width proportional to the shard's weight (restaurants + dishes from the
 * boundary file; the size of its range when the file has no counts).
 * Hovering a segment highlights the shard on the globe; hovering the globe
 * marks its segment.
 */
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { ShardBar } from '../shell/ShardBar';

export function IndexBar() {
  const data = useApp(readyData);
  if (!data) return null;
  return (
    <section className="index-bar" aria-label="Index shards">
      <h3>
        Index shards <span className="dim">· width ∝ {data.weights ? data.weightUnit : 'cells in range'}</span>
      </h3>
      <ShardBar testId="index-bar" segmentTestIdPrefix="segment-" />
    </section>
  );
}
