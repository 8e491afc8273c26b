/**
 * Writing an index's geoshard `_meta` (writeMeta): a change of the cluster state, sent with the
 * connection's admin deadlines. Reading it is the package's (src/opensearch/indexMeta.ts
 * fetchIndexMeta, readMigration), which the CLI and the live API call with this connection.
 */
import type { OpenSearchClient } from './client.ts';
import type { IndexMeta } from '../opensearch/meta.ts';

/** writeMeta replaces the index's `_meta` (mapping updates replace `_meta` whole): a change of the cluster state, so with the admin deadlines (OpenSearchClient.admin). */
export async function writeMeta(client: OpenSearchClient, index: string, meta: IndexMeta): Promise<void> {
  await client.admin('PUT', `/${encodeURIComponent(index)}/_mapping`, { body: { _meta: meta } });
}
