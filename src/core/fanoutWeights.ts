/**
 * Search-origin weights of the fan-out map: the one-shard share weighs each search centre by
 * where searches come from. The explorer uses the restaurants of each non-empty level-10 cell of
 * data/cells.csv at the cell's centre (weightsFromCells): people search where
 * restaurants are, and it is the same data the shards were balanced on, at
 * 21,905 points rather than ~70 city centres. weightsFromCities (population
 * at each sample city) is the coarse alternative. The share is computed at
 * the weight points themselves (fanoutShare.ts, fanoutField.ts), not read off the grid, so it
 * does not depend on the view or its resolution.
 */
import { cellFromOrdinal, cellCenter, ordinalAt } from './cells.ts';
import type { CellWeight } from './build.ts';
import type { Place } from './place.ts';

/** Search-origin weights: points (degrees) with non-negative weights, best in key order (neighbours adjacent) for speed. */
export interface FanoutWeights {
  lat: Float64Array;
  lng: Float64Array;
  weight: Float64Array;
}

/** weightsFromCells returns each non-empty cell's restaurants at its centre, in the cells' (key) order. */
export function weightsFromCells(cells: readonly CellWeight[]): FanoutWeights {
  const n = cells.length;
  const w: FanoutWeights = { lat: new Float64Array(n), lng: new Float64Array(n), weight: new Float64Array(n) };
  cells.forEach((c, k) => {
    const p = cellCenter(cellFromOrdinal(c.ordinal));
    w.lat[k] = p.lat;
    w.lng[k] = p.lng;
    w.weight[k] = c.restaurants;
  });
  return w;
}

/** weightsFromCities returns each city's population (0 when absent) at its centre, sorted into key order. */
export function weightsFromCities(cities: readonly Pick<Place, 'lat' | 'lng' | 'population'>[]): FanoutWeights {
  const order = cities.map((c, k) => ({ c, o: ordinalAt(c.lat, c.lng), k })).sort((a, b) => a.o - b.o || a.k - b.k);
  return {
    lat: Float64Array.from(order, (x) => x.c.lat),
    lng: Float64Array.from(order, (x) => x.c.lng),
    weight: Float64Array.from(order, (x) => x.c.population ?? 0),
  };
}

/**
 * assertFanoutWeights throws a RangeError naming the problem unless w has
 * three arrays of equal length with valid points and finite weights >= 0.
 */
export function assertFanoutWeights(w: unknown): asserts w is FanoutWeights {
  const x = w as FanoutWeights;
  if (!x || !(x.lat instanceof Float64Array) || !(x.lng instanceof Float64Array) || !(x.weight instanceof Float64Array)) {
    throw new RangeError('weights must be { lat, lng, weight } as Float64Arrays');
  }
  if (x.lng.length !== x.lat.length || x.weight.length !== x.lat.length) {
    throw new RangeError(`weights have ${x.lat.length} lat, ${x.lng.length} lng and ${x.weight.length} weight values: expected equal lengths`);
  }
  for (let k = 0; k < x.lat.length; k++) {
    if (!(Math.abs(x.lat[k]) <= 90) || !Number.isFinite(x.lng[k])) throw new RangeError(`weights point ${k} (${x.lat[k]}, ${x.lng[k]}) is not a latitude in [-90, 90] and a finite longitude`);
    if (!(x.weight[k] >= 0) || !Number.isFinite(x.weight[k])) throw new RangeError(`weights.weight[${k}] ${x.weight[k]} is invalid: expected a finite number >= 0`);
  }
}
