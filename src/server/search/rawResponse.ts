/**
 * The parts of OpenSearch's `_search` response the live API reads (hits with routing and source,
 * `_shards`, aggregations, profile). Types only.
 */
import type { ShardsSection } from '../wire.ts';
import type { ProfileShard } from './profile.ts';

export interface RawHit {
  _id: string;
  _routing?: string;
  _source: Record<string, unknown>;
}
export interface RawResponse {
  took: number;
  timed_out: boolean;
  _shards: ShardsSection;
  hits: { total: { value: number; relation: string } | number; hits: RawHit[] };
  aggregations?: Record<string, { buckets: { key: string; doc_count: number }[] }>;
  profile?: { shards?: ProfileShard[] };
  /** What the geoshard plugin's search pipeline decided (its geo_routing_report), when the search went through it. */
  ext?: { geoshard?: ClusterRoutingReport };
}

/** The geoshard plugin's report of one search (docs/plugin.md, `ext.geoshard`). */
export interface ClusterRoutingReport {
  routed: boolean;
  routing: string | null;
  cells?: number | null;
  shards?: number | null;
  excluded?: number | null;
  reason?: string | null;
  micros?: number | null;
}
