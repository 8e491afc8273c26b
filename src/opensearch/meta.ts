/**
 * What a geoshard index says about itself in its mapping's `_meta`: the
 * boundary file it was written with (its hash, and the file itself), the
 * seeded sample, the routing fingerprint and a migration in progress; and the
 * readers that check it and give the router every writer and searcher routes
 * with. Shared by the package's writer (GeoIndexer), its search helper, the
 * CLI and the live API. The sample's own index (its join and document shape)
 * is sampleIndex.ts.
 *
 * No Node imports: only the core and types.
 */
import { Router, assertValidBoundaryFile, type BoundaryFile } from '../core/index.ts';
import { intermediateFile, parseMigrationState, type MigrationState } from '../core/migrationState.ts';
import { SAMPLE_FIELDS, type PipelineFields } from './routingPipeline.ts';

/** The routing formula the core models (OpenSearch 1.x–3.x, Elasticsearch 7.x–9.3), as `_meta.routing.formula` records it. */
export const ROUTING_FORMULA = 'murmur3(routing) floorMod routing_num_shards / routingFactor';

/** What `_meta.routing` records: what an index's shard names were routed with, as the cluster reported it. */
export interface RoutingFingerprint {
  /** "opensearch" or "elasticsearch" (the root endpoint's version.distribution). */
  engine: string;
  /** Full version, e.g. "2.19.6". */
  version: string;
  /** Major version, e.g. 2. */
  major: number;
  formula: string;
  /** The index's routing_num_shards (index.number_of_routing_shards, or the engine's default). */
  routingNumShards: number;
}

/** What `_meta` records about the boundary file (and, after seeding, the sample). */
export interface IndexMeta {
  app: 'geoshard';
  /** The boundary file's hash: the drift guard compares it on every search. */
  hash: string;
  /** The boundary file's version. */
  version: number;
  /** The index name the boundary file declares. */
  index: string;
  numberOfShards: number;
  /** The seeded sample, written by `geoshard seed` (absent before the first seed). */
  sample?: SampleMeta;
  /**
   * What the documents were routed with: engine family and version, routing
   * formula and the index's routing_num_shards, as the cluster reported them
   * when `geoshard seed` wrote the index (absent in indexes seeded before).
   */
  routing?: RoutingFingerprint;
  /**
   * The boundary file itself (the settled file: its hash is `hash`), so a
   * migration can start from what the index was written with (absent in
   * indexes seeded before).
   */
  file?: BoundaryFile;
  /** A migration in progress (`geoshard migrate`): see core/migrationState.ts; absent when settled. */
  migration?: unknown;
  /**
   * The fields the routing pipeline reads (src/opensearch/routingPipeline.ts PipelineFields) when they
   * are not the restaurant sample's: written by `geoshard reindex` for an index of another shape.
   */
  fields?: { location: string; childLocation: string | null; stamp: boolean };
  /** A reindex into this index in progress or kept for rollback (`geoshard reindex`): see src/ops/reindex/reindex.ts. */
  reindex?: unknown;
}

/** The sample `geoshard seed` loaded: enough to predict the per-shard counts. */
export interface SampleMeta {
  /** Restaurants asked for (`--restaurants`). */
  restaurants: number;
  /** At most this many dishes per restaurant (the first ones of its menu). */
  dishesPerRestaurant: number;
  /** False while a seed is running or after one failed: counts are then not final. */
  complete: boolean;
  /**
   * The documents' shape: 2 = dishes carry their restaurant (`restaurant`,
   * `restaurant_location`); absent = written before they did. An index of
   * another shape is seeded again (its strict mapping refuses the new fields).
   */
  docShape?: number;
  /** Documents written by the last complete seed. */
  restaurantDocs?: number;
  dishDocs?: number;
}

/** fieldsOfMeta returns the fields an index routes by: its `_meta.fields` (an index geosharded by `geoshard reindex`), else the sample's (SAMPLE_FIELDS). */
export function fieldsOfMeta(meta: Pick<IndexMeta, 'fields'>): PipelineFields {
  return meta.fields ?? SAMPLE_FIELDS;
}

/** readIndexMeta picks the geoshard `_meta` out of a `GET /<index>/_mapping` body, or null if absent. */
export function readIndexMeta(mappingBody: unknown, index: string): IndexMeta | null {
  const b = mappingBody as Record<string, { mappings?: { _meta?: Partial<IndexMeta> } }> | undefined;
  // The body is keyed by the concrete index name (an alias resolves to it): take the only entry.
  const entry = b?.[index] ?? (b && Object.keys(b).length === 1 ? b[Object.keys(b)[0]] : undefined);
  const meta = entry?.mappings?._meta;
  if (!meta || typeof meta.hash !== 'string') return null;
  return meta as IndexMeta;
}

/** What the index says about its boundary file and a migration in progress. */
export interface IndexMigration {
  meta: IndexMeta;
  /** The settled file (the index's `_meta` hash); null when `_meta` does not hold the file (seeded before it did). */
  base: BoundaryFile | null;
  /** The migration in progress, or null when settled. */
  state: MigrationState | null;
}

/** MigrationError is a refusal or failure with a message for the operator. */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/** migrationOfMeta checks and types the settled file and the migration state of an index `_meta`; throws MigrationError naming the problem. */
export function migrationOfMeta(meta: IndexMeta): IndexMigration {
  let base: BoundaryFile | null = null;
  if (meta.file !== undefined) {
    try {
      assertValidBoundaryFile(meta.file, `index "${meta.index}" _meta.file`);
    } catch (e) {
      throw new MigrationError((e as Error).message);
    }
    if (meta.file.hash !== meta.hash) throw new MigrationError(`index "${meta.index}" _meta.file has hash ${meta.file.hash}, but _meta.hash is ${meta.hash}: the _meta was edited by hand`);
    base = meta.file;
  }
  if (meta.migration === undefined) return { meta, base, state: null };
  if (!base) throw new MigrationError(`index "${meta.index}" has a migration in _meta but not the settled boundary file (_meta.file)`);
  try {
    return { meta, base, state: parseMigrationState(meta.migration, base, `index "${meta.index}" _meta.migration`) };
  } catch (e) {
    throw new MigrationError((e as Error).message);
  }
}

/** routerOf returns the router searchers and writers use for an index's migration state (the settled file's when none). */
export function routerOf(base: BoundaryFile, state: MigrationState | null): Router {
  return new Router(state ? intermediateFile(base, state) : base);
}

/**
 * routingKeyOf names the routing state of an index's `_meta`: `<_meta.hash>@<migration epoch, or
 * "settled">`, a new key whenever the routing may change (a new settled file, a published
 * migration step). '' for an index without geoshard `_meta`.
 */
export function routingKeyOf(meta: IndexMeta | null | undefined): string {
  if (!meta) return '';
  const epoch = (meta.migration as { epoch?: unknown } | undefined)?.epoch;
  return `${meta.hash}@${epoch ?? 'settled'}`;
}

/**
 * RouterCache gives the router an index's `_meta` routes with, rebuilt only when the routing may
 * change: its key (routingKeyOf) moves with every new settled file and every published migration
 * step. The one cache of it for the package's writer (GeoIndexer),
 * the live API's guards and the tests' write load, so each reads `_meta` as often as it likes and
 * builds a router once per state.
 */
export class RouterCache {
  private cached: { key: string; router: Router; base: BoundaryFile | null; state: MigrationState | null } | null = null;

  /**
   * routerFor returns the router for `meta` with the settled file and migration state it was
   * built from. Settled: `settled` when given (the caller's own router of the same file), else
   * the router of `_meta.file`. Throws MigrationError when `_meta` cannot be read as a routing
   * state (migrationOfMeta), or when it is settled, `settled` is absent and `_meta.file` is too.
   */
  routerFor(meta: IndexMeta, settled?: Router): { router: Router; base: BoundaryFile | null; state: MigrationState | null; key: string } {
    const key = routingKeyOf(meta);
    if (meta.migration === undefined && settled) return { router: settled, base: null, state: null, key };
    if (this.cached?.key === key) return this.cached;
    const { base, state } = migrationOfMeta(meta);
    if (!base) throw new MigrationError(`index "${meta.index}" _meta does not hold its boundary file (_meta.file): nothing says how its documents are routed`);
    this.cached = { key, router: routerOf(base, state), base, state };
    return this.cached;
  }
}
