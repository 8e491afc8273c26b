/**
 * Checks, before a command's first change, that the user holds every privilege the change needs
 * and that the cluster can run it (the routing pipeline's Painless script processor).
 *
 * OpenSearch 2.19's security plugin has no "may I?" API (opensearch-project/security#566), but it
 * checks a request's privileges before the request runs: each probe here is a request that the
 * plugin refuses (403, naming the privilege) when the privilege is missing, and that OpenSearch
 * itself refuses, changing nothing, when it is held: an index with 0 shards, a pipeline with an
 * unknown processor, a final setting, a document sent through a pipeline that does not exist, a
 * mapping that changes a field's type, an alias named like its index. Nothing a probe sends can
 * succeed, so a probe never changes the cluster (privilegeChecks.secure.test.ts shows it).
 */
import type { OpenSearchClient, RequestOptions } from './client.ts';
import { missingPrivilege, roleAdvice, type PrivilegedCommand } from './privileges.ts';
import { OpenSearchError } from './clientErrors.ts';

/** One probe: the privilege it checks, for messages, and a request that cannot succeed. */
export interface Probe {
  /** The privilege (action) the probe needs, e.g. "indices:admin/create". */
  privilege: string;
  /** What the command does with it, e.g. `create the index "x"`. */
  purpose: string;
  method: string;
  path: string;
  opts?: RequestOptions;
}

/** A pipeline id no geoshard pipeline ever has (geoshard's are "geoshard-<index>"). */
const NO_PIPELINE = 'geoshard-privilege-probe-no-such-pipeline';
const enc = encodeURIComponent;

/** Creating `index`: refused by OpenSearch for its 0 shards. */
export const probeCreateIndex = (index: string): Probe => ({
  privilege: 'indices:admin/create',
  purpose: `create the index "${index}"`,
  method: 'PUT',
  path: `/${enc(index)}`,
  opts: { body: { settings: { index: { number_of_shards: 0 } } } },
});

/** Changing `index`'s settings (write blocks, refresh, default_pipeline): a final setting, refused. */
export const probeUpdateSettings = (index: string): Probe => ({
  privilege: 'indices:admin/settings/update',
  purpose: `change the settings of "${index}" (write block, refresh interval, default pipeline)`,
  method: 'PUT',
  path: `/${enc(index)}/_settings`,
  opts: { body: { index: { number_of_shards: 1 } } },
});

/** Writing an ingest pipeline: one with a processor type that does not exist, refused. */
export const probePutPipeline = (): Probe => ({
  privilege: 'cluster:admin/ingest/pipeline/put',
  purpose: 'install the routing pipeline',
  method: 'PUT',
  path: `/_ingest/pipeline/${NO_PIPELINE}`,
  opts: { body: { processors: [{ 'geoshard-privilege-probe-no-such-processor': {} }] } },
});

/** Writing a search pipeline: one with a request processor type that does not exist, refused. */
export const probePutSearchPipeline = (): Probe => ({
  privilege: 'cluster:admin/search/pipeline/put',
  purpose: 'install the search pipeline that routes searches in the cluster',
  method: 'PUT',
  path: `/_search/pipeline/${NO_PIPELINE}`,
  opts: { body: { request_processors: [{ 'geoshard-privilege-probe-no-such-processor': {} }] } },
});

/** Writing documents of `index` (and _bulk): through a pipeline that does not exist, refused before anything is written or created. */
export const probeWriteDocs = (index: string): Probe[] => [
  {
    privilege: 'indices:data/write/index',
    purpose: `write documents of "${index}"`,
    method: 'POST',
    path: `/${enc(index)}/_doc`,
    opts: { query: { pipeline: NO_PIPELINE }, body: {} },
  },
  {
    privilege: 'indices:data/write/bulk',
    purpose: 'send documents in bulk',
    method: 'POST',
    path: '/_bulk',
    opts: { query: { pipeline: NO_PIPELINE }, body: `${JSON.stringify({ index: { _index: index } })}\n{}\n` },
  },
];

/** Changing `index`'s mapping (geoshard's _meta): a field with an empty name, refused. */
export const probePutMapping = (index: string): Probe => ({
  privilege: 'indices:admin/mapping/put',
  purpose: `record geoshard's state in the _meta of "${index}"`,
  method: 'PUT',
  path: `/${enc(index)}/_mapping`,
  opts: { body: { properties: { '': { type: 'keyword' } } } },
});

/** Adding and moving aliases of `index`: an alias named like the index itself, refused. */
export const probeAliases = (index: string): Probe => ({
  privilege: 'indices:admin/aliases',
  purpose: `add and move the aliases of "${index}"`,
  method: 'POST',
  path: '/_aliases',
  opts: { body: { actions: [{ add: { index, alias: index } }] } },
});

/** Asking which shard a routing value goes to (indices:admin/shards/search_shards): a read. */
export const probeSearchShards = (index: string): Probe => ({
  privilege: 'indices:admin/shards/search_shards',
  purpose: `check the routing of "${index}"`,
  method: 'GET',
  path: `/${enc(index)}/_search_shards`,
});

/** The engine's _reindex from `src`: into itself, refused. */
export const probeReindex = (src: string): Probe => ({
  privilege: 'indices:data/write/reindex',
  purpose: `copy "${src}" with the engine's _reindex`,
  method: 'POST',
  path: '/_reindex',
  opts: { body: { source: { index: src }, dest: { index: src } } },
});

/** The migration lock: creating its index and writing its documents. */
export const probeLock = (lockIndex: string): Probe[] => [probeCreateIndex(lockIndex), ...probeWriteDocs(lockIndex).slice(0, 1)];

/** A missing privilege found by checkPrivileges. */
export interface MissingPrivilege {
  privilege: string;
  purpose: string;
  user: string | null;
}

/**
 * PrivilegeError: the user lacks privileges a command needs; thrown before the command changed
 * anything. Its message names each missing privilege, what it is for, the user and the role.
 */
export class PrivilegeError extends Error {
  constructor(
    readonly missing: MissingPrivilege[],
    readonly command: PrivilegedCommand | null,
    url: string,
  ) {
    const user = missing.find((m) => m.user)?.user;
    super(
      `${user ? `user "${user}"` : 'the user'} lacks ${missing.length === 1 ? 'a privilege' : `${missing.length} privileges`} on ${url} this needs: ` +
        missing.map((m) => `[${m.privilege}] (to ${m.purpose})`).join(', ') +
        `. Nothing was changed: ${roleAdvice(command)}.`,
    );
    this.name = 'PrivilegeError';
  }
}

/**
 * checkPrivileges sends every probe and throws PrivilegeError listing each one the security
 * plugin refused (403 with "no permissions for [...]"); any other answer means the privilege is
 * held (or the cluster has no security plugin). Other failures (unreachable, TLS, 401) are thrown
 * as they are. Probes run one at a time: a few small requests before a long command.
 */
export async function checkPrivileges(client: OpenSearchClient, probes: readonly Probe[], command: PrivilegedCommand | null = null): Promise<void> {
  const missing: MissingPrivilege[] = [];
  const seen = new Set<string>();
  for (const p of probes) {
    const key = `${p.method} ${p.path} ${p.privilege}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await client.request(p.method, p.path, p.opts);
    } catch (e) {
      if (!(e instanceof OpenSearchError) || e.kind !== 'http') throw e;
      if (e.status === 401) throw e;
      if (e.status !== 403) continue; // OpenSearch refused the request itself: the privilege is held
      const reason = (e.body as { error?: { reason?: string } } | undefined)?.error?.reason ?? '';
      const m = missingPrivilege(reason);
      missing.push({ privilege: m?.privilege ?? p.privilege, purpose: p.purpose, user: m?.user ?? null });
    }
  }
  if (missing.length > 0) throw new PrivilegeError(missing, command, client.url);
}

/** What `geoshard reindex` changes (SRC into DEST behind ALIAS, under the lock of SRC). */
export function reindexProbes(o: { src: string; dest: string; alias: string; lockIndex: string; engineCopy: boolean }): Probe[] {
  return [
    ...probeLock(o.lockIndex),
    probeAliases(o.src),
    probeCreateIndex(o.dest),
    probePutPipeline(),
    ...probeWriteDocs(o.dest),
    probeUpdateSettings(o.src),
    probePutMapping(o.src),
    probeSearchShards(o.src),
    ...(o.engineCopy ? [probeReindex(o.src)] : []),
  ];
}

/** What `geoshard reindex --finalize / --rollback` changes: aliases, SRC's write block, DEST's _meta, the lock. */
export function reindexEndProbes(o: { src: string; dest: string; lockIndex: string }): Probe[] {
  return [...probeLock(o.lockIndex), probeAliases(o.src), probeUpdateSettings(o.src), probePutMapping(o.dest)];
}

/** What `geoshard migrate` changes in `index`: documents, write blocks, _meta, the pipeline, the lock. */
export function migrateProbes(o: { index: string; lockIndex: string }): Probe[] {
  return [...probeLock(o.lockIndex), ...probeWriteDocs(o.index), probeUpdateSettings(o.index), probePutMapping(o.index), probePutPipeline(), probeSearchShards(o.index)];
}

/** What `geoshard pipeline --install / --uninstall` changes: the pipeline and the index's default_pipeline. */
export function pipelineProbes(index: string, search = false): Probe[] {
  return [probePutPipeline(), ...(search ? [probePutSearchPipeline()] : []), probeUpdateSettings(index)];
}

/** A cluster that cannot run what a command needs; thrown before the command changed anything. */
export class ClusterAbilityError extends Error {
  override name = 'ClusterAbilityError';
}

/**
 * checkPipelineModules refuses (with a ClusterAbilityError naming the node and what is missing) a cluster whose nodes
 * lack the modules the routing pipeline runs on: lang-painless and ingest-common (its `script`
 * processor). Read from `GET _nodes/plugins` (cluster:monitor/nodes/info), a read.
 */
export async function checkPipelineModules(client: OpenSearchClient): Promise<void> {
  const body = await client.get<{ nodes?: Record<string, { name?: string; modules?: { name: string }[]; plugins?: { name: string }[] }> }>('/_nodes/plugins', { query: { filter_path: 'nodes.*.name,nodes.*.modules.name,nodes.*.plugins.name' } });
  for (const n of Object.values(body.nodes ?? {})) {
    const have = new Set([...(n.modules ?? []), ...(n.plugins ?? [])].map((m) => m.name));
    const lacking = ['lang-painless', 'ingest-common'].filter((m) => !have.has(m));
    if (lacking.length > 0) {
      throw new ClusterAbilityError(
        `the node "${n.name ?? '?'}" of ${client.url} lacks the module${lacking.length > 1 ? 's' : ''} ${lacking.join(' and ')}: the routing pipeline's Painless script processor cannot run there. ` +
          'Nothing was changed. Use a distribution that bundles them (the official one does), or add them to every node.',
      );
    }
  }
}
