/**
 * MovingMarks: the ranges a live migration is moving, hatched on the Hilbert
 * ribbon's whole-key-space strip (placed by their share of the key space; at
 * least 3 px wide so a small range stays visible), as the globe hatches them.
 */
import { useApp } from '../shell/store';
import { movingRanges } from './movingRanges';
import { CELL_COUNT } from '../../core/index';

export function MovingMarks() {
  const reading = useApp((s) => s.migrationWatch.reading);
  const ranges = movingRanges(reading);
  const marks = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const [start, end] = [ranges[i], ranges[i + 1]];
    marks.push(
      <div
        key={start}
        className="ribbon-moving"
        data-testid="ribbon-moving"
        data-range={`${start}-${end}`}
        title="moving in a live migration"
        style={{ left: `${(100 * start) / CELL_COUNT}%`, width: `max(3px, ${(100 * (end - start)) / CELL_COUNT}%)` }}
      />,
    );
  }
  return <>{marks}</>;
}
