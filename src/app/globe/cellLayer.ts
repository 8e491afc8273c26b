/**
 * The cell layer's drawing (three.js, no React, no store): cells from data and accessors, as
 * deck.gl's S2Layer draws them (data, getS2Token, getFillColor), into buffers the layer owns.
 * CellLayer.tsx puts it in the scene; the search's covering, the requests layer and the fan-out
 * map are three uses of it with different data and accessors.
 *
 * A cell is a quad on the sphere given by its four corners: a level-10 S2 cell (its corners from
 * the covering worker, or computed here from its ordinal) or a run of a pixel grid (the fan-out
 * map, whose quads are no S2 cell and carry no ordinal). It may be filled (two triangles) and
 * outlined (four segments), each part with its own lift and renderOrder, drawn with the scene's
 * line shader (lineMaterial.ts) so it follows the globe, the map, the net and the morph between
 * them. The shader colors a draw call with one color (or each vertex by its shard's), so a
 * part's cells are grouped by color: one bucket (a mesh or line segments and its material) per
 * color, made on first use and kept. A bucket's buffers grow by powers of two and are rewritten
 * in place (only the vertices drawn are uploaded), so per-frame data costs no allocation.
 */
import * as THREE from 'three';
import type { SceneUniforms } from './uniforms';
import { lineGeometry, lineMaterial, withFixedBounds } from './lineMaterial';
import { cellBuffers, cellCorners, writeCell, writeCells, capacityFor, FILL_VERTS, OUTLINE_VERTS, type CellBuffers } from './cellGeometry';

/**
 * A cell's color: sRGB channels in [0, 1] with an optional alpha (1 when absent), or 'shard':
 * its shard's palette color, dimmed where the surface is (by its ordinal).
 */
export type CellColor = 'shard' | readonly [r: number, g: number, b: number] | readonly [r: number, g: number, b: number, a: number];

/** The cells of a datum as aligned columns, one entry per cell. */
export interface CellColumns {
  /** Corners: 8 floats a cell, (lat, lng) radians of corners 0..3 around the quad (cellGeometry.ts cellCorners). Absent: computed from `ordinals`. */
  corners?: Float32Array;
  /** Level-10 ordinal of each cell ('shard' colors by it); absent for quads that are no S2 cell. */
  ordinals?: ArrayLike<number>;
}

/** How a part (the fill or the outline) is drawn. */
export interface CellPart<D> {
  /**
   * The color of every cell, or an accessor giving cell i's (null: not drawn in this part).
   * Cells of equal color share a draw call: return colors from a palette (one object per
   * color) rather than a new array per cell, which works but is slower to group.
   */
  color: CellColor | ((i: number, d: D) => CellColor | null);
  /** Multiplies every color's alpha (default 1). */
  opacity?: number;
  /** Height above the surface, unit-sphere radii. */
  lift: number;
  /** three.js renderOrder of the part's draw calls. */
  renderOrder: number;
}

/** What a layer draws of a datum: its cells (getCells, like deck.gl's getS2Token) and its parts. */
export interface CellLayerStyle<D> {
  getCells: (d: D) => CellColumns;
  fill?: CellPart<D>;
  outline?: CellPart<D>;
}

/** What one draw put on the screen: the datum's cells and the buckets (draw calls) of each part. */
export interface CellsDrawn {
  cells: number;
  fillBuckets: number;
  outlineBuckets: number;
}

interface Bucket {
  material: THREE.ShaderMaterial;
  object: THREE.Mesh | THREE.LineSegments;
  buffers: CellBuffers | null;
  capacity: number;
  /** Cells written this draw. */
  count: number;
}

/** Unused buckets kept for reuse (a color that comes back: the fan-out map's 4+ while the radius is dragged). */
const SPARE_BUCKETS = 8;

/** A part's buckets by color key, and the bucket of each cell (reused between draws). */
class Part<D> {
  readonly buckets = new Map<string, Bucket>();
  private which = new Int32Array(0);
  private list: Bucket[] = [];
  constructor(
    private readonly uniforms: SceneUniforms,
    private readonly parent: THREE.Object3D,
    readonly perCell: number,
  ) {}

  /**
   * Groups n cells by color and counts each bucket's cells: `single` is the one bucket of a
   * part with one color (cell k goes to slot k); else each cell's bucket is bucketOf(i).
   */
  group(spec: CellPart<D> | undefined, d: D | null, n: number): { single: Bucket | null; buckets: number } {
    for (const b of this.buckets.values()) b.count = 0;
    if (!spec || !d || n === 0) return { single: null, buckets: 0 };
    const color = spec.color;
    if (typeof color !== 'function') {
      const b = this.bucket(color, spec);
      b.count = n;
      return { single: b, buckets: 1 };
    }
    if (this.which.length < n) this.which = new Int32Array(capacityFor(n));
    const byRef = new Map<CellColor, number>();
    this.list = [];
    let last: CellColor | null = null;
    let lastIndex = -1;
    for (let i = 0; i < n; i++) {
      const c = color(i, d);
      if (c === null) {
        this.which[i] = -1;
        continue;
      }
      if (c !== last) {
        let k = byRef.get(c);
        if (k === undefined) {
          const b = this.bucket(c, spec);
          k = this.list.indexOf(b);
          if (k < 0) k = this.list.push(b) - 1;
          byRef.set(c, k);
        }
        last = c;
        lastIndex = k;
      }
      this.which[i] = lastIndex;
      this.list[lastIndex].count++;
    }
    return { single: null, buckets: this.list.filter((b) => b.count > 0).length };
  }

  /** Sets the grouped buckets' counts back to 0, to count the cells written into them again. */
  rewind(): void {
    for (const b of this.list) b.count = 0;
  }

  /** The bucket of cell i after group() with an accessor (null: not drawn). */
  bucketOf(i: number): Bucket | null {
    const k = this.which[i];
    return k < 0 ? null : this.list[k];
  }

  /** The bucket of a color, made (with its material and object) on first use; styled as `spec` says. */
  private bucket(c: CellColor, spec: CellPart<D>): Bucket {
    const alpha = (c === 'shard' || c.length === 3 ? 1 : c[3]) * (spec.opacity ?? 1);
    const key = c === 'shard' ? `shard ${alpha}` : `${c[0]},${c[1]},${c[2]} ${alpha}`;
    let b = this.buckets.get(key);
    if (!b) {
      const rgb: [number, number, number] = c === 'shard' ? [1, 1, 1] : [c[0], c[1], c[2]];
      const material = lineMaterial(this.uniforms, { lift: spec.lift, color: rgb, byShard: c === 'shard', alpha });
      // A fill's triangles face either way once projected: both windings.
      if (this.perCell === FILL_VERTS) material.side = THREE.DoubleSide;
      // Its geometry comes with its first cells (reserve).
      const geometry = withFixedBounds(new THREE.BufferGeometry());
      const object = this.perCell === FILL_VERTS ? new THREE.Mesh(geometry, material) : new THREE.LineSegments(geometry, material);
      object.frustumCulled = false;
      object.visible = false;
      this.parent.add(object);
      b = { material, object, buffers: null, capacity: 0, count: 0 };
      this.buckets.set(key, b);
    }
    b.material.uniforms.uLift.value = spec.lift;
    b.object.renderOrder = spec.renderOrder;
    return b;
  }

  /** Gives every bucket with cells room for them: new buffers when they outgrow theirs (a GPU buffer cannot grow in place). */
  reserve(): void {
    for (const b of this.buckets.values()) {
      if (b.count <= b.capacity && b.buffers) continue;
      b.capacity = capacityFor(b.count);
      b.buffers = cellBuffers(b.capacity, this.perCell);
      b.object.geometry.dispose();
      b.object.geometry = lineGeometry(b.buffers, { vertices: 0, dynamic: true });
    }
  }

  /** Uploads what was written (the first count cells of each bucket), hides empty buckets and frees spare ones. */
  finish(): void {
    let spare = 0;
    for (const [key, b] of this.buckets) {
      b.object.visible = b.count > 0;
      if (b.count > 0) touch(b.object.geometry, b.count * this.perCell);
      else if (++spare > SPARE_BUCKETS) {
        this.free(b);
        this.buckets.delete(key);
      }
    }
  }

  private free(b: Bucket): void {
    this.parent.remove(b.object);
    b.object.geometry.dispose();
    b.material.dispose();
  }

  dispose(): void {
    for (const b of this.buckets.values()) this.free(b);
    this.buckets.clear();
  }
}

/** Marks the first `vertices` vertices of every attribute for upload and draws them. */
function touch(g: THREE.BufferGeometry, vertices: number): void {
  for (const a of Object.values(g.attributes) as THREE.BufferAttribute[]) {
    a.clearUpdateRanges();
    a.addUpdateRange(0, vertices * a.itemSize);
    a.needsUpdate = true;
  }
  g.setDrawRange(0, vertices);
}

/** A cell layer's drawing: draw a datum (null: nothing) with a style; dispose frees its buffers and materials. */
export interface CellLayerDrawing<D> {
  draw(d: D | null, style: CellLayerStyle<D>): CellsDrawn;
  dispose(): void;
}

/**
 * createCellLayer makes a layer's drawing under `parent` (its buckets' objects are added there),
 * with a canvas's uniforms (useUniforms).
 */
export function createCellLayer<D>(uniforms: SceneUniforms, parent: THREE.Object3D): CellLayerDrawing<D> {
  const fill = new Part<D>(uniforms, parent, FILL_VERTS);
  const outline = new Part<D>(uniforms, parent, OUTLINE_VERTS);
  return {
    draw(d, style) {
      const cells = d ? style.getCells(d) : null;
      const corners = cells ? (cells.corners ?? cellCorners(cells.ordinals ?? [])) : new Float32Array(0);
      const ordinals = cells?.ordinals ?? null;
      const n = corners.length / 8;
      const f = fill.group(style.fill, d, n);
      const o = outline.group(style.outline, d, n);
      fill.reserve();
      outline.reserve();
      // One color a part (the covering): both parts in one pass, cell k in slot k.
      if (f.single || o.single) writeCells(corners, ordinals, f.single?.buffers ?? null, o.single?.buffers ?? null, n);
      // Grouped by color: each cell in the next slot of its bucket, in data order.
      const fillGrouped = f.buckets > 0 && !f.single;
      const outlineGrouped = o.buckets > 0 && !o.single;
      if (fillGrouped || outlineGrouped) {
        if (fillGrouped) fill.rewind();
        if (outlineGrouped) outline.rewind();
        for (let i = 0; i < n; i++) {
          const fb = fillGrouped ? fill.bucketOf(i) : null;
          const ob = outlineGrouped ? outline.bucketOf(i) : null;
          if (fb || ob) writeCell(corners, i, ordinals ? ordinals[i] : 0, fb?.buffers ?? null, fb ? fb.count++ : 0, ob?.buffers ?? null, ob ? ob.count++ : 0);
        }
      }
      fill.finish();
      outline.finish();
      return { cells: n, fillBuckets: f.buckets, outlineBuckets: o.buckets };
    },
    dispose() {
      fill.dispose();
      outline.dispose();
    },
  };
}
