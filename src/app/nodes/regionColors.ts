/**
 * The colors of the "color regions by" modes other than the shard palette,
 * and the paint (globe/regionPaint.ts) each mode gives the regions:
 *
 *   node      the node holding the shard's primary (one categorical color per
 *             node, by the node's place in the name-sorted node list); a
 *             primary with no node (unassigned) is dark grey
 *   no-copy   red: no started copy of the shard (its documents cannot be
 *             searched); amber: the primary is started but some replica is
 *             not; grey: every copy started
 *   latency   the shard's recent p50 search time on its own sequential scale
 *             (dark blue = fastest shard seen, yellow = slowest); no samples: grey
 *
 * Marks (red stripes) are the shards whose documents are missing from the
 * current live answer, in every mode. Pure functions: the driver
 * (regionPaintDriver.ts) feeds them the store.
 */
import type { RGB } from '../shell/palette';
import { fromHex, toHex } from '../shell/palette';
import type { ColorBy, RegionPaint } from '../globe/regionPaint';
import type { ClusterNode, ShardCopy } from '../../server/wire';
import type { ShardLatency } from '../shell/latencyStats';

/** Node colors (Tableau 10 without its grey): categorical, apart from one another. Color i + 9 repeats color i. */
export const NODE_PALETTE: readonly string[] = Object.freeze(['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f']);
/** A region whose primary has no node. */
export const NO_NODE = '#3b3f48';
/** no-copy mode. */
export const COPY_COLORS = { none: '#e4572e', degraded: '#f2b134', ok: '#4a5263' } as const;
/** A region with nothing to show in this mode (latency: no samples yet). */
export const NO_DATA = '#333844';
/** The latency scale's stops, fastest to slowest (viridis: ordered in lightness, readable without color vision). */
export const LATENCY_STOPS: readonly string[] = Object.freeze(['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725']);

/** nodeColor returns the color of the node at index i of the name-sorted node list. */
export function nodeColor(i: number): string {
  return NODE_PALETTE[((i % NODE_PALETTE.length) + NODE_PALETTE.length) % NODE_PALETTE.length];
}

/** latencyColor returns the scale's color at t in [0, 1] (clamped), linearly between the stops in sRGB. */
export function latencyColor(t: number): RGB {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (LATENCY_STOPS.length - 1);
  const k = Math.min(LATENCY_STOPS.length - 2, Math.floor(x));
  const a = fromHex(LATENCY_STOPS[k]);
  const b = fromHex(LATENCY_STOPS[k + 1]);
  const f = x - k;
  return [0, 1, 2].map((j) => a[j] + (b[j] - a[j]) * f) as RGB;
}

/** The latency scale's domain: the fastest and slowest p50 among the shards with samples (ms); null when none has any. */
export function latencyDomain(stats: readonly ShardLatency[]): { min: number; max: number } | null {
  if (stats.length === 0) return null;
  return { min: Math.min(...stats.map((s) => s.p50)), max: Math.max(...stats.map((s) => s.p50)) };
}

/** How a shard's copies stand: none started, the primary started but a replica not, or every copy started. */
export function copyHealth(copies: readonly ShardCopy[], shard: number): 'none' | 'degraded' | 'ok' {
  const mine = copies.filter((c) => c.shard === shard);
  if (!mine.some((c) => c.state === 'STARTED' || c.state === 'RELOCATING')) return 'none';
  return mine.every((c) => c.state === 'STARTED') ? 'ok' : 'degraded';
}

/** What a paint is computed from. */
export interface PaintInput {
  by: ColorBy;
  /** The boundary file's shards in key order: name and OpenSearch shard number. */
  shards: readonly { name: string; shard: number }[];
  /** Shard palette colors in key order (the 'shard' mode). */
  palette: readonly RGB[];
  /** The cluster's nodes and copies (null when not known). */
  nodes: readonly ClusterNode[] | null;
  copies: readonly ShardCopy[] | null;
  /** Recent per-shard latency. */
  latency: readonly ShardLatency[];
  /** Names of the shards whose documents are missing from the current answer. */
  missing: ReadonlySet<string>;
}

/**
 * paintRegions returns the paint of a mode, or null when the globe should
 * show the plain shard palette (shard mode with nothing marked).
 */
export function paintRegions(p: PaintInput): RegionPaint | null {
  const marked = p.shards.map((s) => p.missing.has(s.name));
  if (p.by === 'shard' && !marked.some(Boolean)) return null;
  let colors: RGB[];
  if (p.by === 'node') {
    const order = new Map((p.nodes ?? []).map((n, i) => [n.name, i]));
    colors = p.shards.map((s) => {
      const primary = p.copies?.find((c) => c.shard === s.shard && c.primary);
      const i = primary?.node ? order.get(primary.node.name) : undefined;
      return fromHex(i === undefined ? NO_NODE : nodeColor(i));
    });
  } else if (p.by === 'no-copy') {
    colors = p.shards.map((s) => fromHex(p.copies ? COPY_COLORS[copyHealth(p.copies, s.shard)] : NO_DATA));
  } else if (p.by === 'latency') {
    const byName = new Map(p.latency.map((l) => [l.name, l]));
    const d = latencyDomain(p.latency);
    colors = p.shards.map((s) => {
      const l = byName.get(s.name);
      if (!l || !d) return fromHex(NO_DATA);
      return latencyColor(d.max > d.min ? (l.p50 - d.min) / (d.max - d.min) : 0.5);
    });
  } else {
    colors = [...p.palette];
  }
  return { colors, marked };
}

/** cssOf writes a paint color for the DOM (legends). */
export const cssOf = (c: RGB) => toHex(c);
