import { describe, it, expect } from 'vitest';
import { mismatchMessage } from './routingCheck.ts';
import { ROUTING_FORMULA } from '../../opensearch/meta.ts';

describe('the routing-mismatch message', () => {
  const fp = { engine: 'opensearch', version: '3.8.0', major: 3, formula: ROUTING_FORMULA, routingNumShards: 30 };
  const misroutes = [
    { index: 0, name: 'n0', declared: 3, actual: [7] },
    { index: 4, name: 'n4', declared: 9, actual: [-1] },
  ];
  const msg = mismatchMessage('dishes', fp, 960, 15, misroutes);

  it('names the engine and its version, the index, and each name with where it lands', () => {
    expect(msg).toContain('on opensearch 3.8.0, 2 of 15 shard names');
    expect(msg).toContain('index "dishes"');
    expect(msg).toContain('"n0" → shard 7 (declared 3)');
    expect(msg).toContain('"n4" → no started copy (declared 9)');
  });

  it('names the setting on both sides and the two fixes', () => {
    expect(msg).toContain('routing_num_shards 30 (index.number_of_routing_shards)');
    expect(msg).toContain('chosen for 960');
    expect(msg).toContain('geoshard seed --recreate');
    expect(msg).toContain('geoshard balance');
  });

  it('lists at most five names and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ index: i, name: `m${i}`, declared: i, actual: [i + 1] }));
    const m = mismatchMessage('dishes', fp, 960, 15, many);
    expect(m).toContain('"m4"');
    expect(m).not.toContain('"m5"');
    expect(m).toContain('and 3 more');
  });
});
