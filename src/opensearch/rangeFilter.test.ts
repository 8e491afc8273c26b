/**
 * The range filter's parts that need no node: the ordinals a range's tokens
 * stand for (checked against the core's ordinalAt of points inside, an
 * independent path through s2js), and the queries built for a stamped and an
 * unstamped index. The script itself is run by the cluster in
 * src/ops/migrate/migrationAnyShape.live.test.ts (every document moved is the one
 * the core routes elsewhere) and its S2 by pipeline.live.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { CELL_COUNT, cellToken, cellFromOrdinal, ordinalAt, ordinalRange } from '../core/cells.ts';
import { mulberry32 } from '../core/testutil.ts';
import { cellBox, cellRangeFilter, exclusionFilters, ordinalsOf, rangeCells, RANGE_MIN_SCORE, RANGE_SCRIPT, type LatLngBox } from './rangeFilter.ts';

/** The parts of an unstamped range filter: constant_score over a script_score whose query is the boxes. */
type ScriptScore = { constant_score: { filter: { script_score: { query: { bool: { should: Record<string, Record<string, unknown>>[] } }; script: { source: string; params: Record<string, unknown> }; min_score: number } } } };

const inBox = (b: LatLngBox, lat: number, lng: number) => lat >= b.south && lat <= b.north && (b.west <= b.east ? lng >= b.west && lng <= b.east : lng >= b.west || lng <= b.east);

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
    const f = (cellRangeFilter({ location: 'spot', childLocation: null, stamp: false }, { start: '89c259', end: null }) as ScriptScore).constant_score.filter.script_score;
    const boxes = f.query;
    // A script_score (its script can read _source, which a script query's cannot), kept by min_score.
    expect(f.script.source).toBe(RANGE_SCRIPT);
    expect(f.min_score).toBe(RANGE_MIN_SCORE);
    expect(RANGE_SCRIPT).toMatch(/params\._source/);
    expect(f.script.params).toEqual({ location: 'spot', child: null, lo: ordinalsOf({ start: '89c259', end: null }).lo, hi: CELL_COUNT });
    expect(boxes.bool.should.length).toBeGreaterThan(0);
    expect(boxes.bool.should.every((q) => Object.keys((q as { geo_bounding_box: object }).geo_bounding_box)[0] === 'spot')).toBe(true);
  });

  it('cuts a range into the fewest cells whose union it is, exactly', () => {
    const rand = mulberry32(5);
    for (let t = 0; t < 300; t++) {
      const a = Math.floor(rand() * CELL_COUNT);
      const b = t % 3 === 0 ? Math.min(CELL_COUNT, a + Math.floor(rand() * 5000)) : Math.floor(rand() * CELL_COUNT);
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const cells = rangeCells(lo, hi);
      // Contiguous, in order, from lo to hi: the union is exactly the range (core's ordinalRange of each cell).
      let at = lo;
      for (const c of cells) {
        const [first, last] = ordinalRange(c);
        expect(first).toBe(at);
        at = last + 1;
      }
      expect(at).toBe(hi);
      expect(cells.length).toBeLessThanOrEqual(6 + 2 * 3 * 10);
    }
    expect(rangeCells(0, CELL_COUNT)).toHaveLength(6);
  });

  it('boxes every point of a range: random points whose cell the core puts in the range lie in one of its cells\' boxes', () => {
    const rand = mulberry32(6);
    let checked = 0;
    for (let t = 0; t < 40; t++) {
      const lo = Math.floor(rand() * (CELL_COUNT - 300_000));
      const hi = lo + 1 + Math.floor(rand() * 300_000);
      const boxes = rangeCells(lo, hi).map(cellBox);
      // Points near the range: centres of its level-10 cells, nudged toward and past their corners.
      for (let k = 0; k < 200; k++) {
        const lat = -90 + rand() * 180;
        const lng = -180 + rand() * 360;
        const o = ordinalAt(lat, lng);
        if (o < lo || o >= hi) continue;
        checked++;
        expect(boxes.some((b) => inBox(b, lat, lng)), `${lat},${lng} (ordinal ${o}) in [${lo}, ${hi})`).toBe(true);
      }
    }
    // Whole faces, a pole and the antimeridian: every sampled point of the sphere is in the boxes of the whole curve.
    const all = rangeCells(0, CELL_COUNT).map(cellBox);
    for (let k = 0; k < 2000; k++) {
      const lat = -90 + rand() * 180;
      const lng = -180 + rand() * 360;
      expect(all.some((b) => inBox(b, lat, lng))).toBe(true);
    }
    for (const [lat, lng] of [[90, 0], [-90, 0], [0, 180], [0, -180], [89.9999, 179.9999]]) expect(all.some((b) => inBox(b, lat, lng)), `${lat},${lng}`).toBe(true);
    expect(checked).toBeGreaterThan(0);
  });

  it('leaves out only the other owner\'s copy of each moving range', () => {
    const ex = exclusionFilters({ location: 'where', childLocation: 'site_where' }, [{ routing: 'alpha', start: '89c259', end: '89c25b' }]);
    expect(ex).toHaveLength(1);
    const b = ex[0] as { bool: { filter: Record<string, unknown>[] } };
    expect(b.bool.filter[0]).toEqual({ term: { _routing: 'alpha' } });
    const inRange = (b.bool.filter[1] as ScriptScore).constant_score.filter.script_score;
    expect(inRange.script.params).toMatchObject({ location: 'where', child: 'site_where' });
    // The prefilter boxes both located fields (a child is located by its copy of the parent's point).
    expect(new Set(inRange.query.bool.should.map((q) => Object.keys(q.geo_bounding_box)[0]))).toEqual(new Set(['where', 'site_where']));
  });
});
