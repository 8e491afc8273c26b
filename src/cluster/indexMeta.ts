/**
 * The index's geoshard `_meta` on the cluster: read it (getIndexMeta), read it as the settled
 * file and migration state (readMigration), replace it (writeMeta). The shape of `_meta` and its
 * pure readers are the package's (src/opensearch/meta.ts); this file is the server's round trips.
 *
 * It sits below the seeder, the pipeline guard and the migration executor, which all read or
 * write `_meta`: none of them imports another for it (scripts/imports.mjs checks there is no
 * import circle).
 */
import type { OpenSearchClient } from './client.ts';
import { readIndexMeta, type IndexMeta } from '../opensearch/indexSpec.ts';
import { MigrationError, migrationOfMeta, type IndexMigration } from '../opensearch/meta.ts';

/** getIndexMeta returns the index's geoshard `_meta`, null if it has none, or undefined if the index does not exist. */
export async function getIndexMeta(client: OpenSearchClient, index: string): Promise<IndexMeta | null | undefined> {
  const res = await client.request('GET', `/${encodeURIComponent(index)}/_mapping`, { okStatuses: [404] });
  if (res.status === 404) return undefined;
  return readIndexMeta(res.body, index);
}

/**
 * readMigration reads the index's `_meta`: the settled file and the migration
 * state, both checked (a file whose hash is not `_meta.hash`, or a state the
 * core refuses, throws MigrationError naming the problem). Undefined when the
 * index does not exist; throws MigrationError when it has no geoshard `_meta`.
 */
export async function readMigration(client: OpenSearchClient, index: string): Promise<IndexMigration | undefined> {
  const meta = await getIndexMeta(client, index);
  if (meta === undefined) return undefined;
  if (meta === null) throw new MigrationError(`index "${index}" has no geoshard _meta: it was not made by "geoshard seed"`);
  return migrationOfMeta(meta);
}

/** writeMeta replaces the index's `_meta` (mapping updates replace `_meta` whole): a change of the cluster state, so with the admin deadlines (OpenSearchClient.admin). */
export async function writeMeta(client: OpenSearchClient, index: string, meta: IndexMeta): Promise<void> {
  await client.admin('PUT', `/${encodeURIComponent(index)}/_mapping`, { body: { _meta: meta } });
}
