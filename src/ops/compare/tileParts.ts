/**
 * An index cut into parts the cluster can count: map tiles of its geo_point
 * fields (OpenSearch's `geotile_grid` aggregation, over doc values), and the
 * documents with none of those fields. Two copies of the same documents give
 * the same counts per part whatever their sharding, so a part whose counts
 * differ holds every difference: the switch of a reindex reads ids only
 * there (docDiff.ts, `differingParts`), not the whole index. Node only.
 *
 * Part keys: `"<field index>/<zoom>/<x>/<y>"` for a tile of one geo field
 * (a document with two located fields is in a tile of each), `"none"` for
 * the documents with none of them.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { PartCounter } from './docDiff.ts';
import { eachShard, shardPages } from './shardReader.ts';

const enc = encodeURIComponent;

/** The zoom of the first cut: at most 4^7 = 16,384 tiles per field, within the default `search.max_buckets` (65,535). */
export const TOP_ZOOM = 7;
/** Zoom levels a part is cut further by (8 × 8 = 64 sub-tiles at most). */
export const STEP = 3;
/** The deepest zoom `geotile_grid` takes. */
export const MAX_ZOOM = 29;

const RAD = Math.PI / 180;
/** Degrees a tile's box is widened by, so rounding never leaves a point of the tile outside it (a point read twice is harmless). */
const PAD = 1e-6;

/** tileBox returns the geo_bounding_box of tile z/x/y (Web Mercator, as `geotile_grid` cuts; the top and bottom rows reach the poles). */
export function tileBox(z: number, x: number, y: number): { top_left: { lat: number; lon: number }; bottom_right: { lat: number; lon: number } } {
  const n = 2 ** z;
  const lat = (row: number) => Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / n))) / RAD;
  const top = y === 0 ? 90 : Math.min(90, lat(y) + PAD);
  const bottom = y === n - 1 ? -90 : Math.max(-90, lat(y + 1) - PAD);
  const left = Math.max(-180, (x / n) * 360 - 180 - PAD);
  const right = Math.min(180, ((x + 1) / n) * 360 - 180 + PAD);
  return { top_left: { lat: top, lon: left }, bottom_right: { lat: bottom, lon: right } };
}

/** The query that selects a part's documents (a superset at tile edges by PAD). */
function partQuery(fields: readonly string[], key: string): Record<string, unknown> {
  if (key === 'none') return { bool: { must_not: fields.map((field) => ({ exists: { field } })) } };
  const [f, z, x, y] = key.split('/').map(Number);
  return { geo_bounding_box: { [fields[f]]: tileBox(z, x, y) } };
}

/**
 * tileParts is an index's PartCounter over its geo_point `fields` (the
 * location, and a join child's copy of its parent's). `counts(null)` is the
 * first cut (zoom 7 per field, and "none"); `counts(key)` cuts one tile 3
 * zooms deeper. Throws (an OpenSearchError) when a field is not a geo_point:
 * the caller then reads every id.
 */
export function tileParts(client: OpenSearchClient, index: string, shards: number, fields: readonly string[]): PartCounter {
  const search = async (query: Record<string, unknown>, aggs: Record<string, unknown>) =>
    (await client.request<{ aggregations: Record<string, { buckets?: { key: string; doc_count: number }[]; doc_count?: number }> }>('POST', `/${enc(index)}/_search`, { body: { size: 0, track_total_hits: false, query, aggs }, timeoutMs: 300_000 })).body.aggregations;
  const grid = (field: string, precision: number) => ({ geotile_grid: { field, precision, size: 65_535, shard_size: 65_535 } });
  return {
    async counts(parent) {
      const out = new Map<string, number>();
      if (parent === null) {
        const aggs: Record<string, unknown> = { none: { filter: partQuery(fields, 'none') } };
        fields.forEach((field, f) => (aggs[`f${f}`] = grid(field, TOP_ZOOM)));
        const r = await search({ match_all: {} }, aggs);
        fields.forEach((_, f) => r[`f${f}`].buckets!.forEach((b) => out.set(`${f}/${b.key}`, b.doc_count)));
        if (r.none.doc_count) out.set('none', r.none.doc_count);
        return out;
      }
      const [f, z] = parent.split('/').map(Number);
      const r = await search(partQuery(fields, parent), { t: grid(fields[f], Math.min(MAX_ZOOM, z + STEP)) });
      r.t.buckets!.forEach((b) => out.set(`${f}/${b.key}`, b.doc_count));
      return out;
    },
    canSplit: (key) => key !== 'none' && Number(key.split('/')[1]) < MAX_ZOOM,
    async eachIdIn(keys, f) {
      let n = 0;
      for (let i = 0; i < keys.length; i += 64) {
        const query = { bool: { should: keys.slice(i, i + 64).map((k) => partQuery(fields, k)), minimum_should_match: 1 } };
        await eachShard(shards, 3, async (k) => {
          for await (const hits of shardPages(client, index, k, query, 10_000, false)) {
            f(hits.map((h) => h._id));
            n += hits.length;
          }
        });
      }
      return n;
    },
  };
}
