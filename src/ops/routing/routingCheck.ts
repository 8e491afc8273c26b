/**
 * The routing check: every shard name of the boundary file is asked to `_search_shards`
 * (src/opensearch/fingerprint.ts, with the fingerprint that says what the names were routed
 * with), and a name that lands on another shard than the file declares makes the index unfit for
 * routed searches (another engine, another formula, another number_of_routing_shards). The live
 * API's routing guard and `geoshard verify-routing` run it.
 */
import { defaultRoutingNumShards, type Router } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';

import { ROUTING_FORMULA, type RoutingFingerprint } from '../../opensearch/meta.ts';
import { fingerprintOf, misroutesOf, type Misroute } from '../../opensearch/fingerprint.ts';

/** The result of checkRouting. */
export interface RoutingCheck {
  status: 'ok' | 'routing-mismatch';
  fingerprint: RoutingFingerprint;
  /** The routing_num_shards the file's names were chosen for (its routingNumShards, or the default for its shard count). */
  fileRoutingNumShards: number;
  misroutes: Misroute[];
  /** One paragraph for people (empty when ok). */
  message: string;
}

/**
 * mismatchMessage says which names land elsewhere, on which engine, with
 * which setting, and the two fixes. Pure.
 */
export function mismatchMessage(index: string, fp: RoutingFingerprint, fileRoutingNumShards: number, numberOfShards: number, misroutes: readonly Misroute[]): string {
  const shown = misroutes
    .slice(0, 5)
    .map((m) => `"${m.name}" → ${m.actual.includes(-1) ? 'no started copy' : `shard ${m.actual.join(',')}`} (declared ${m.declared})`)
    .join(', ');
  return (
    `routing mismatch: on ${fp.engine} ${fp.version}, ${misroutes.length} of ${numberOfShards} shard names of the boundary file land on another shard of index "${index}" than the file declares: ` +
    `${shown}${misroutes.length > 5 ? `, and ${misroutes.length - 5} more` : ''}. ` +
    `The index has routing_num_shards ${fp.routingNumShards} (index.number_of_routing_shards); the file's names were chosen for ${fileRoutingNumShards} ` +
    `(formula ${ROUTING_FORMULA}). Routed searches would miss documents, so every search is refused. ` +
    `Fix: reseed the index with the file's setting ("npx geoshard seed --recreate" sets number_of_routing_shards from the file's routingNumShards), ` +
    `or pick names for this engine and index with "geoshard balance".`
  );
}

/**
 * checkRouting asks the engine where every shard name of the router's file
 * goes and returns the fingerprint and the names that land elsewhere.
 * Rejects with OpenSearchError when a request fails (a missing index too).
 */
export async function checkRouting(client: OpenSearchClient, router: Router): Promise<RoutingCheck> {
  const file = router.file;
  const [fingerprint, misroutes] = await Promise.all([fingerprintOf(client, file.index), misroutesOf(client, file.index, router.shards)]);
  const fileRoutingNumShards = file.routingNumShards ?? defaultRoutingNumShards(file.numberOfShards);
  // A group without a started copy says nothing about routing: only names sent to a wrong shard number count.
  const wrong = misroutes.filter((m) => !(m.actual.length === 1 && m.actual[0] === -1));
  const status = wrong.length > 0 ? 'routing-mismatch' : 'ok';
  return {
    status,
    fingerprint,
    fileRoutingNumShards,
    misroutes,
    message: status === 'ok' ? '' : mismatchMessage(file.index, fingerprint, fileRoutingNumShards, file.numberOfShards, wrong),
  };
}
