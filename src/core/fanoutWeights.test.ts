import { describe, it, expect } from 'vitest';
import { weightsFromCells, weightsFromCities } from './fanoutWeights.ts';
import { cellOrdinal, parseToken, cellCenter, cellFromOrdinal } from './cells.ts';
import type { CellWeight } from './build.ts';

describe('search-origin weights', () => {
  it('takes restaurants at each cell centre from a cells file, and cities in key order', () => {
    const cells: CellWeight[] = ['808581', '89c259'].map((token, k) => ({ token, ordinal: cellOrdinal(parseToken(token)), restaurants: 10 + k, dishes: 500 }));
    const w = weightsFromCells(cells);
    expect(Array.from(w.weight)).toEqual([10, 11]);
    const c = cellCenter(cellFromOrdinal(cells[1].ordinal));
    expect([w.lat[1], w.lng[1]]).toEqual([c.lat, c.lng]);
    const cw = weightsFromCities([
      { lat: 40.71, lng: -74, population: 5 },
      { lat: 37.77, lng: -122.42 },
    ]);
    // San Francisco (token 808581) comes before New York (89c259) in key order.
    expect(Array.from(cw.lng)).toEqual([-122.42, -74]);
    expect(Array.from(cw.weight)).toEqual([0, 5]);
  });
});
