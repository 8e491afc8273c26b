/**
 * The ranges a live migration is moving, as the globe hatches them: read from
 * the Migration view's latest /api/status reading (migrationSlice), and kept
 * on the surface shader by startMovingPaint (started once at boot).
 */
import type { AppStore } from '../shell/types';
import type { MigrationReading } from '../api/migration';
import { isMoving } from '../api/migration';
import { MAX_MOVING_RANGES } from '../globe/regionPaint';
import { parseToken, cellOrdinal, CELL_COUNT } from '../../core/index';

/**
 * movingRanges returns the level-10 ordinal ranges [start, end) of the moves
 * between their first publish and their last (isMoving), as pairs in key
 * order; at most MAX_MOVING_RANGES (the first ones). A move's end of null is
 * the end of the key space. Empty when nothing is moving.
 */
export function movingRanges(reading: MigrationReading | null): Int32Array {
  if (!reading || reading.kind !== 'moving') return new Int32Array(0);
  const pairs: number[] = [];
  for (const m of reading.migration.moves) {
    if (!isMoving(m.step) || pairs.length / 2 >= MAX_MOVING_RANGES) continue;
    pairs.push(cellOrdinal(parseToken(m.start, 'move start')), m.end === null ? CELL_COUNT : cellOrdinal(parseToken(m.end, 'move end')));
  }
  return Int32Array.from(pairs);
}

/** startMovingPaint keeps the globe's hatching in step with the Migration view's reading; returns a function that stops it. */
export function startMovingPaint(store: AppStore): () => void {
  let last = '';
  const update = () => {
    const s = store.getState();
    const ranges = movingRanges(s.migrationWatch.reading);
    const key = ranges.join(',');
    if (key === last) return;
    last = key;
    // Test hook: the ranges the globe hatches, as "start-end" pairs.
    document.body.dataset.movingRanges = Array.from({ length: ranges.length / 2 }, (_, i) => `${ranges[2 * i]}-${ranges[2 * i + 1]}`).join(' ');
    // The store change asks for a frame; FrameDriver writes the ranges into its canvas's uniforms.
    s.setMovingRanges(ranges);
  };
  update();
  return store.subscribe((s) => s.migrationWatch, update);
}
