import { describe, it, expect, vi } from 'vitest';
import * as THREE from 'three';
import { createUniforms } from './uniforms';
import { createCellLayer, type CellColor, type CellLayerStyle } from './cellLayer';
import { cellCorners, FILL_VERTS, OUTLINE_VERTS } from './cellGeometry';
import { fixed, derived } from './watched';

/** n cells with distinct corners (cell k's corners at lat 0.01·k) and ordinals 100 + k. */
function cells(n: number) {
  const corners = new Float32Array(8 * n);
  for (let k = 0; k < n; k++) for (let j = 0; j < 4; j++) corners.set([0.01 * k, 0.001 * j], 8 * k + 2 * j);
  return { corners, ordinals: Int32Array.from({ length: n }, (_, k) => 100 + k) };
}
type Cells = ReturnType<typeof cells>;

/** The visible objects under a parent: kind, draw range, color uniform, alpha, lift, renderOrder. */
function drawn(parent: THREE.Object3D) {
  return parent.children
    .filter((o) => o.visible)
    .map((o) => {
      const m = o as THREE.Mesh;
      const u = (m.material as THREE.ShaderMaterial).uniforms;
      return { kind: m.type, count: m.geometry.drawRange.count, color: (u.uColor.value as THREE.Vector3).toArray(), byShard: u.uByShard.value, alpha: u.uAlpha.value, lift: u.uLift.value, order: m.renderOrder };
    });
}

const RED: CellColor = [1, 0, 0];
const BLUE: CellColor = [0, 0, 1, 0.5];

describe('the cell layer', () => {
  it('fills with one color and outlines with another: one mesh and one set of segments, each with its lift and order', () => {
    const parent = new THREE.Group();
    const layer = createCellLayer<Cells>(createUniforms({ debug: false }), parent);
    const style: CellLayerStyle<Cells> = { getCells: (c) => c, fill: { color: 'shard', opacity: 0.94, lift: 0.0004, renderOrder: 0.6 }, outline: { color: RED, opacity: 0.55, lift: 0.0006, renderOrder: 0.7 } };
    expect(layer.draw(cells(3), style)).toEqual({ cells: 3, fillBuckets: 1, outlineBuckets: 1 });
    const d = drawn(parent);
    expect(d.map((x) => [x.kind, x.count, x.byShard, x.order])).toEqual([
      ['Mesh', 3 * FILL_VERTS, 1, 0.6],
      ['LineSegments', 3 * OUTLINE_VERTS, 0, 0.7],
    ]);
    expect(d[0].alpha).toBeCloseTo(0.94, 12);
    expect(d[1].color).toEqual([1, 0, 0]);
    expect(d[1].alpha).toBeCloseTo(0.55, 12);
    expect(d[1].lift).toBe(0.0006);
    // The fill is written in data order, with each cell's ordinal (what 'shard' colors by).
    const mesh = parent.children[0] as THREE.Mesh;
    expect(Array.from((mesh.geometry.getAttribute('aOrd').array as Float32Array).subarray(0, 3 * FILL_VERTS))).toEqual([100, 101, 102].flatMap((o) => new Array(FILL_VERTS).fill(o)));
  });

  it('groups cells by the color the accessor gives: one draw call per color, cells in data order, null left out', () => {
    const parent = new THREE.Group();
    const layer = createCellLayer<Cells>(createUniforms({ debug: false }), parent);
    const colors: (CellColor | null)[] = [RED, BLUE, null, RED, [0, 0, 1, 0.5]];
    const style: CellLayerStyle<Cells> = { getCells: (c) => c, fill: { color: (i) => colors[i], lift: 0.0003, renderOrder: 0.57 } };
    expect(layer.draw(cells(5), style)).toEqual({ cells: 5, fillBuckets: 2, outlineBuckets: 0 });
    const d = drawn(parent);
    // A new array of the same color joins its bucket.
    expect(d.map((x) => [x.color, x.alpha, x.count])).toEqual([
      [[1, 0, 0], 1, 2 * FILL_VERTS],
      [[0, 0, 1], 0.5, 2 * FILL_VERTS],
    ]);
    const lats = (o: THREE.Object3D) => Array.from((o as THREE.Mesh).geometry.getAttribute('aLL').array as Float32Array).filter((_, i) => i % (2 * FILL_VERTS) === 0);
    expect(lats(parent.children[0]).slice(0, 2).map((x) => Math.round(x * 100))).toEqual([0, 3]);
    expect(lats(parent.children[1]).slice(0, 2).map((x) => Math.round(x * 100))).toEqual([1, 4]);
  });

  it('rewrites its buffers in place while they have room, grows them by powers of two, and hides what has no cells', () => {
    const parent = new THREE.Group();
    const layer = createCellLayer<Cells>(createUniforms({ debug: false }), parent);
    const style: CellLayerStyle<Cells> = { getCells: (c) => c, fill: { color: 'shard', lift: 0.0004, renderOrder: 0.6 } };
    layer.draw(cells(10), style);
    const mesh = parent.children[0] as THREE.Mesh;
    const first = mesh.geometry;
    const dispose = vi.spyOn(first, 'dispose');
    layer.draw(cells(1000), style);
    expect(mesh.geometry).toBe(first);
    expect(mesh.geometry.drawRange.count).toBe(1000 * FILL_VERTS);
    const position = mesh.geometry.getAttribute('position') as THREE.BufferAttribute;
    expect(position.updateRanges).toEqual([{ start: 0, count: 3 * 1000 * FILL_VERTS }]);
    layer.draw(cells(1500), style);
    expect(dispose).toHaveBeenCalled();
    expect(mesh.geometry).not.toBe(first);
    expect(mesh.geometry.getAttribute('position').count).toBe(2048 * FILL_VERTS);
    layer.draw(null, style);
    expect(drawn(parent)).toEqual([]);
    layer.dispose();
    expect(parent.children).toEqual([]);
  });

  it('draws level-10 cells from their ordinals alone', () => {
    const parent = new THREE.Group();
    const layer = createCellLayer<number[]>(createUniforms({ debug: false }), parent);
    layer.draw([5, 6], { getCells: (o) => ({ ordinals: o }), outline: { color: RED, lift: 0.001, renderOrder: 1 } });
    const ll = (parent.children[0] as THREE.LineSegments).geometry.getAttribute('aLL').array as Float32Array;
    const c = cellCorners([5, 6]);
    expect([ll[0], ll[1], ll[2], ll[3]]).toEqual([c[0], c[1], c[2], c[3]]);
  });
});

describe('watched values', () => {
  it('derive once per new source value, whoever asks', () => {
    let listener: ((v: number) => void) | null = null;
    const source = { get: () => 1, subscribe: (l: (v: number) => void) => ((listener = l), () => (listener = null)) };
    const f = vi.fn((x: number) => ({ twice: 2 * x }));
    const d = derived(source, f);
    const seen: unknown[] = [];
    d.subscribe((v) => seen.push(v));
    const a = d.get();
    expect(d.get()).toBe(a);
    listener!(3);
    expect(seen).toEqual([{ twice: 6 }]);
    expect(f).toHaveBeenCalledTimes(2);
    expect(fixed(7).get()).toBe(7);
  });
});
