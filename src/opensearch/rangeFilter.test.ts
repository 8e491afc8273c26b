/**
 * The range filter's parts that need no node: the ordinals a range's tokens
 * stand for (checked against the core's ordinalAt of points inside, an
 * independent path through s2js), and the queries built for a stamped and an
 * unstamped index. The script itself is run by the cluster in
 * src/server/migrationAnyShape.live.test.ts (every document moved is the one
 * the core routes elsewhere) and its S2 by pipeline.live.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { CELL_COUNT, cellToken, cellFromOrdinal, ordinalAt } from '../core/cells.ts';
import { cellRangeFilter, exclusionFilters, ordinalsOf, RANGE_SCRIPT } from './rangeFilter.ts';

describe('range filters', () => {
  it('turns a range of tokens into the ordinals of the cells points in it fall in', () => {
    const paris = ordinalAt(48.8566, 2.3522);
    const tokyo = ordinalAt(35.6762, 139.6503);
    const r = { start: cellToken(cellFromOrdinal(Math.min(paris, tokyo))), end: cellToken(cellFromOrdinal(Math.max(paris, tokyo))) };
    expect(ordinalsOf(r)).toEqual({ lo: Math.min(paris, tokyo), hi: Math.max(paris, tokyo) });
    expect(ordinalsOf({ start: r.start, end: null }).hi).toBe(CELL_COUNT);
    expect(() => ordinalsOf({ start: 'zz', end: null })).toThrow(/start/);
  });

  it('filters a stamped index by its cell keyword and any other by the script over its own fields', () => {
    expect(cellRangeFilter({ location: 'location', childLocation: 'restaurant_location', stamp: true }, { start: '89c259', end: '89c25b' })).toEqual({ range: { cell: { gte: '89c259', lt: '89c25b' } } });
    const f = cellRangeFilter({ location: 'spot', childLocation: null, stamp: false }, { start: '89c259', end: null }) as { script: { script: { source: string; params: Record<string, unknown> } } };
    expect(f.script.script.source).toBe(RANGE_SCRIPT);
    expect(f.script.script.params).toEqual({ location: 'spot', child: null, lo: ordinalsOf({ start: '89c259', end: null }).lo, hi: CELL_COUNT });
  });

  it('leaves out only the other owner\'s copy of each moving range', () => {
    const ex = exclusionFilters({ location: 'where', childLocation: 'site_where' }, [{ routing: 'alpha', start: '89c259', end: '89c25b' }]);
    expect(ex).toHaveLength(1);
    const b = ex[0] as { bool: { filter: Record<string, unknown>[] } };
    expect(b.bool.filter[0]).toEqual({ term: { _routing: 'alpha' } });
    expect((b.bool.filter[1] as { script: { script: { params: Record<string, unknown> } } }).script.script.params).toMatchObject({ location: 'where', child: 'site_where' });
  });
});
