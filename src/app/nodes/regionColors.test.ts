import { describe, it, expect } from 'vitest';
import { paintRegions, latencyColor, nodeColor, copyHealth, NODE_PALETTE, COPY_COLORS, NO_NODE, NO_DATA, LATENCY_STOPS, type PaintInput } from './regionColors';
import { fromHex, shardPalette } from '../shell/palette';
import { regionTexels } from '../globe/regionPaint';
import type { ShardCopy } from '../../server/wire';

const SHARDS = [
  { name: 'alpha', shard: 2 },
  { name: 'bravo', shard: 0 },
  { name: 'charlie', shard: 1 },
];
const copy = (shard: number, primary: boolean, state: ShardCopy['state'], on: string | null): ShardCopy => ({ shard, name: null, primary, state, node: on ? { id: on, name: on } : null, docs: null });
const NODES = ['n1', 'n2', 'n3'].map((name) => ({ id: name, name, roles: [], up: true }));
const base = (over: Partial<PaintInput>): PaintInput => ({ by: 'shard', shards: SHARDS, palette: shardPalette(3), nodes: NODES, copies: [], latency: [], missing: new Set(), ...over });

describe('region colors', () => {
  it('shows the plain shard palette (no paint) in shard mode with nothing missing, and the palette with marks when something is', () => {
    expect(paintRegions(base({}))).toBeNull();
    const p = paintRegions(base({ missing: new Set(['charlie']) }))!;
    expect(p.colors).toEqual(shardPalette(3));
    expect(p.marked).toEqual([false, false, true]);
  });

  it('colors each region by the node of its shard’s primary, by the node’s place in the list; a primary on no node is grey', () => {
    const copies = [copy(2, true, 'STARTED', 'n3'), copy(2, false, 'STARTED', 'n1'), copy(0, true, 'STARTED', 'n1'), copy(1, true, 'UNASSIGNED', null)];
    const p = paintRegions(base({ by: 'node', copies }))!;
    expect(p.colors).toEqual([fromHex(NODE_PALETTE[2]), fromHex(NODE_PALETTE[0]), fromHex(NO_NODE)]);
    expect(nodeColor(NODE_PALETTE.length + 1)).toBe(NODE_PALETTE[1]);
  });

  it('in no-copy mode, red where no copy is started, amber where a replica is not, grey where all are', () => {
    const copies = [copy(2, true, 'STARTED', 'n1'), copy(2, false, 'INITIALIZING', 'n2'), copy(0, true, 'UNASSIGNED', null), copy(1, true, 'STARTED', 'n2'), copy(1, false, 'STARTED', 'n3')];
    expect(copyHealth(copies, 0)).toBe('none');
    const p = paintRegions(base({ by: 'no-copy', copies }))!;
    expect(p.colors).toEqual([fromHex(COPY_COLORS.degraded), fromHex(COPY_COLORS.none), fromHex(COPY_COLORS.ok)]);
  });

  it('in latency mode puts the fastest p50 at the scale’s start and the slowest at its end, and greys shards with no time', () => {
    const latency = [
      { name: 'alpha', n: 3, p50: 40, p99: 90 },
      { name: 'bravo', n: 3, p50: 10, p99: 12 },
    ];
    const p = paintRegions(base({ by: 'latency', latency }))!;
    expect(p.colors[0]).toEqual(fromHex(LATENCY_STOPS[LATENCY_STOPS.length - 1]));
    expect(p.colors[1]).toEqual(fromHex(LATENCY_STOPS[0]));
    expect(p.colors[2]).toEqual(fromHex(NO_DATA));
  });

  it('interpolates the latency scale between its stops: halfway between the first two stops at t = 1/8', () => {
    const [a, b] = [fromHex(LATENCY_STOPS[0]), fromHex(LATENCY_STOPS[1])];
    const mid = latencyColor(1 / 8);
    for (let k = 0; k < 3; k++) expect(mid[k]).toBeCloseTo((a[k] + b[k]) / 2, 9);
    expect(latencyColor(-1)).toEqual(a);
    expect(latencyColor(2)).toEqual(fromHex(LATENCY_STOPS[LATENCY_STOPS.length - 1]));
  });

  it('writes a paint as one RGBA texel per shard, alpha 0 marking a region', () => {
    const t = regionTexels({ colors: [[1, 0, 0], [0, 0.5, 1]], marked: [false, true] });
    expect([...t]).toEqual([255, 0, 0, 255, 0, 128, 255, 0]);
    expect(() => regionTexels({ colors: [[1, 0, 0]], marked: [] })).toThrow(/1 colours but 0 marks/);
  });
});
