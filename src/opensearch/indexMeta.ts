/**
 * Reading an index's geoshard `_meta` from the cluster: the one reader the package's writer
 * (GeoIndexer), its search helper (routedSearch), the CLI and the live API all call. The shape
 * of `_meta` and its pure readers are meta.ts; writing it (a change of the cluster state, with the
 * connection's admin deadlines) is src/cluster/indexMeta.ts.
 *
 * Pure but for the requests it sends through the client it is given (transport.ts).
 */
import type { TransportClient } from './transport.ts';
import { statusOfError } from './transport.ts';
import { MigrationError, migrationOfMeta, readIndexMeta, type IndexMeta, type IndexMigration } from './meta.ts';

/**
 * fetchMapping returns an index's (or alias's one index's) mapping body as `GET /<index>/_mapping`
 * answers it, `{ <concrete index>: { mappings } }`, or undefined when it does not exist. A
 * read-only role such as the security plugin's built-in `readall_and_monitor` may not call that
 * API (`indices:admin/mappings/get`) but reads the same mapping in the cluster state
 * (`cluster:monitor/state`): a refusal naming that privilege is answered from
 * `GET _cluster/state/metadata/<index>`. Rejects as the client does for any other failure.
 */
export async function fetchMapping(client: TransportClient, index: string): Promise<Record<string, { mappings: Record<string, unknown> }> | undefined> {
  const path = encodeURIComponent(index);
  try {
    const res = await client.transport.request({ method: 'GET', path: `/${path}/_mapping` }, { ignore: [404] });
    return res.statusCode === 404 ? undefined : (res.body as Record<string, { mappings: Record<string, unknown> }>);
  } catch (e) {
    if (statusOfError(e) !== 403 || !/indices:admin\/mappings\/get/.test(String((e as Error).message))) throw e;
    const res = await client.transport.request({ method: 'GET', path: `/_cluster/state/metadata/${path}`, querystring: { filter_path: 'metadata.indices.*.mappings', ignore_unavailable: 'true', allow_no_indices: 'true' } });
    const indices = (res.body as { metadata?: { indices?: Record<string, { mappings?: Record<string, unknown> }> } }).metadata?.indices ?? {};
    if (Object.keys(indices).length === 0) return undefined;
    // The cluster state keeps a mapping under its type name (_doc); the mapping API does not.
    return Object.fromEntries(Object.entries(indices).map(([name, md]) => [name, { mappings: (md.mappings?._doc as Record<string, unknown> | undefined) ?? md.mappings ?? {} }]));
  }
}

/**
 * fetchIndexMeta reads an index's (or alias's) geoshard `_meta`: null when it has none, undefined
 * when the index does not exist. One mapping read (fetchMapping). Rejects as the client does.
 */
export async function fetchIndexMeta(client: TransportClient, index: string): Promise<IndexMeta | null | undefined> {
  const body = await fetchMapping(client, index);
  return body === undefined ? undefined : readIndexMeta(body, index);
}

/**
 * readMigration reads the index's `_meta` as its settled file and migration state, both checked
 * (migrationOfMeta: a file whose hash is not `_meta.hash`, or a state the core refuses, throws
 * MigrationError naming the problem). Undefined when the index does not exist; throws
 * MigrationError when it has no geoshard `_meta`.
 */
export async function readMigration(client: TransportClient, index: string): Promise<IndexMigration | undefined> {
  const meta = await fetchIndexMeta(client, index);
  if (meta === undefined) return undefined;
  if (meta === null) throw new MigrationError(`index "${index}" has no geoshard _meta: it was not made by "geoshard seed"`);
  return migrationOfMeta(meta);
}
