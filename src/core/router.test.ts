import { describe, it, expect } from 'vitest';
import { Router } from './router.ts';
import { cellOrdinal, tokenAt, CELL_COUNT, cellFromOrdinal } from './cells.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { mulberry32, randomPoint, fileWithCuts } from './testutil.ts';


function randomCuts(rand: () => number, n: number): number[] {
  return Array.from({ length: n }, () => Math.floor(rand() * CELL_COUNT));
}

describe('Router', () => {
  it('maps a point to its cell and the shard whose range holds it', () => {
    const sfOrd = cellOrdinal(BigInt('0x8085810000000000'));
    const r = new Router(fileWithCuts([sfOrd - 10, sfOrd, sfOrd + 1]));
    expect(r.route(37.7749, -122.4194)).toEqual({ token: '808581', index: 2, name: r.shards[2].name, shard: 2 });
    expect(r.shardOfToken('808581').index).toBe(2);
    expect(r.indexOfOrdinal(0)).toBe(0);
    expect(r.indexOfOrdinal(sfOrd - 10)).toBe(1);
    expect(r.indexOfOrdinal(CELL_COUNT - 1)).toBe(3);
  });

  it('puts every point in exactly one shard, the one whose [start, next start) holds its ordinal', () => {
    const rand = mulberry32(3);
    const r = new Router(fileWithCuts(randomCuts(rand, 35)));
    for (let k = 0; k < 5000; k++) {
      const p = randomPoint(rand);
      const o = cellOrdinal(BigInt('0x' + tokenAt(p.lat, p.lng).padEnd(16, '0')));
      const holders = r.shards.filter((_, i) => r.starts[i] <= o && o < r.starts[i + 1]);
      expect(holders).toHaveLength(1);
      expect(r.route(p.lat, p.lng).index).toBe(holders[0].index);
    }
  });

  it('refuses to route on an invalid file', () => {
    const f = fileWithCuts([100, 200]);
    expect(() => new Router({ ...f, boundaries: ['89c25b', '808581'] })).toThrow(/boundaries\[1\]: "808581" is not after boundaries\[0\] "89c25b"/);
  });

  it('writes routing strings in key order with no spaces', () => {
    const r = new Router(fileWithCuts([1000, 2000, 3000]));
    expect(r.routingString([3, 0, 3, 1])).toBe(`${r.shards[0].name},${r.shards[1].name},${r.shards[3].name}`);
    expect(r.allShardsRouting().split(',')).toHaveLength(4);
  });

  it('counts covering cells per shard, summing to the covering size', () => {
    const sfOrd = cellOrdinal(BigInt('0x8085810000000000'));
    const r = new Router(fileWithCuts([sfOrd]));
    const res = r.cover(37.7749, -122.4194, 24.14);
    expect(res.shards.reduce((a, s) => a + s.cells, 0)).toBe(res.ordinals.length);
    expect(Array.from(res.ordinals, cellFromOrdinal)).toEqual(regionCovererCells(37.7749, -122.4194, 24.14));
    expect(res.routing).toBe(r.routingString(res.shards.map((s) => s.index)));
    expect(res.shards.length).toBe(2);
  });
});
