import { parse, int, str, fieldValue } from '../args.ts';
import { loadBoundaryFile, loadIndexConfig, CliError } from '../io.ts';
import type { Command, Io } from '../command.ts';
import { acquireLock, LOCK_INDEX } from '../../ops/migrate/migrationLock.ts';
import { MigrationError } from '../../opensearch/meta.ts';
import {
  aliasTargets,
  finalizeReindex,
  readReindex,
  reindexesOf,
  rollbackReindex,
  runReindex,
  typeAt,
  ReindexError,
  REINDEX_PAUSE_POINTS,
  COPY_MODES,
  type CopyMode,
  type ReindexPausePoint,
} from '../../ops/reindex/reindex.ts';
import { cancelCopy, copyTaskStatus, rethrottleCopy } from '../../ops/reindex/copyEngine.ts';
import { ShardReadError } from '../../ops/compare/shardReader.ts';
import { checkPipelineModules, checkPrivileges, ClusterAbilityError, PrivilegeError, reindexEndProbes, reindexProbes } from '../../cluster/privilegeChecks.ts';
import { env as readEnv } from '../../cluster/env.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { clusterClient } from '../clusterClient.ts';


/** Default age of a heartbeat after which another host's lock is stale. */
const DEFAULT_LOCK_STALE_MS = 30_000;

/**
 * pauseHook reads GEOSHARD_REINDEX_PAUSE=<point> (copying: after the first copied batch;
 * verifying: after the verify's reads; switching: under the write block, before the alias
 * call). There the process writes "geoshard reindex: paused at <point>" to stderr and waits
 * forever: a test kills it (kill -9) and runs the command again.
 */
function pauseHook(io: Io, env = process.env): ((point: ReindexPausePoint) => Promise<void>) | undefined {
  const v = readEnv('GEOSHARD_REINDEX_PAUSE', env);
  if (!v) return undefined;
  if (!(REINDEX_PAUSE_POINTS as readonly string[]).includes(v)) {
    throw new CliError(`geoshard reindex: GEOSHARD_REINDEX_PAUSE ${JSON.stringify(v)} is invalid: expected one of ${REINDEX_PAUSE_POINTS.join(', ')}`, 2);
  }
  return (p) => {
    if (p !== v) return Promise.resolve();
    io.err(`geoshard reindex: paused at ${p} (pid ${process.pid})\n`);
    return new Promise(() => void setInterval(() => {}, 60_000));
  };
}

export const reindex: Command = {
  name: 'reindex',
  summary: 'copy an index into a new geosharded one while clients write, verify it per document, switch the alias in one call',
  usage: `geoshard reindex --from SRC --to DEST --boundaries FILE [--alias NAME] [--config FILE] [--field F]
                 [--copy client|engine] [--throttle N] [--batch N] [--concurrency C] [--lock-stale-ms MS] [--json]
geoshard reindex --to DEST --rethrottle N | --pause
geoshard reindex --to DEST --finalize
geoshard reindex --to DEST --rollback

Adopts an index that was never geosharded (any shard count, flat or parent/child), or carries
out a change of shard count ("geoshard split" / "merge" output, which "geoshard migrate"
cannot move in place), behind an alias that clients search and write through:

  1. creates DEST: SRC's mapping (fields kept) with _routing required, geoshard's _meta with the
     boundary file, N shards from the file, and the routing pipeline as its default pipeline;
  2. copies every document from a point-in-time per SRC shard (C shards at once), routed by the
     client with the pipeline's rule (routing, and a parent's cell and shard when stamped) and
     sent past the pipeline, parents before children; progress with documents/s and an ETA;
  3. verifies per document, per DEST shard (ids, content hash, the shard the location names)
     and prints what differs, then fixes it;
  4. catches up with what clients wrote to SRC meanwhile (by _seq_no per shard, and an id diff
     for deletes), in passes until one finds (almost) nothing;
  5. switches: a write block on SRC (index.blocks.write: writers get 403
     cluster_block_exception and retry), one exact pass under it, then one _aliases call
     (remove SRC, add DEST). SRC is kept, write-blocked, so a write by its old name is
     refused, never lost.
The state (phase, checkpoints) is in DEST's _meta: a run killed at any point (kill -9) resumes
when the same command runs again. A second reindex of SRC while one runs is refused.

  --from SRC        the source index, or an alias naming one index (then --alias defaults to it)
  --to DEST         the new index (must not exist, or be this reindex's, to resume)
  --boundaries FILE the boundary file DEST is sharded by; its index must be the alias or SRC
  --alias NAME      the name clients use: an alias of SRC, or a new name. An alias cannot take
                    the name of an index, so when clients use SRC's own name today: give a new
                    NAME; it is added to SRC at once (move clients to it now), moved to DEST at
                    the switch, and --finalize then gives SRC's name to DEST as well
                    (remove_index + add in one _aliases call), so the old name works again
  --config FILE     geoshard.config.json: its location (and join's childLocation) route DEST
  --field F         the geo_point field (overrides the config's location; without --config a
                    flat index)
  --copy MODE       who copies: "client" (default: this process reads SRC and routes each document
                    itself, past the pipeline) or "engine" (the cluster's sliced _reindex through
                    DEST's routing pipeline, followed through the tasks API: the process only
                    polls, and the copy runs on every node that holds a shard of SRC)
  --throttle N      --copy engine: at most N documents per second (default: no throttle)
  --rethrottle N    change the throttle of DEST's running engine copy (N documents/s; -1: none)
  --pause           cancel DEST's running engine copy; run the reindex again to resume it (what
                    DEST holds is skipped)
  --batch N         documents per copy page and bulk request (default 5000; 100..10000)
  --concurrency C   SRC shards copied at once (default 3; 1..16)
  --lock-stale-ms MS another host's lock is stale after this long (default ${DEFAULT_LOCK_STALE_MS})
  --json            print the outcome as JSON: { "outcome", "index", ... }
  --finalize        after the switch: delete SRC (and give its name to DEST, see --alias)
  --rollback        after the switch, before --finalize: copy DEST's writes back to SRC and point
                    the alias at SRC again, in one _aliases call

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200). Locks: GEOSHARD_LOCK_INDEX (default
${LOCK_INDEX}).`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      {
        from: { type: 'string' },
        to: { type: 'string' },
        boundaries: { type: 'string' },
        alias: { type: 'string' },
        config: { type: 'string' },
        field: { type: 'string' },
        batch: { type: 'string' },
        concurrency: { type: 'string' },
        'lock-stale-ms': { type: 'string' },
        finalize: { type: 'boolean' },
        rollback: { type: 'boolean' },
        copy: { type: 'string' },
        throttle: { type: 'string' },
        rethrottle: { type: 'string' },
        pause: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      'reindex',
    );
    /** The result: a line of text, or with --json one object. */
    const result = (text: string, obj: Record<string, unknown>) => io.out(values.json ? JSON.stringify(obj) + '\n' : text);
    const name = (v: unknown, flag: string) => fieldValue(str(v, flag, 'reindex'), 'index', flag, 'reindex');
    const dest = name(values.to, 'to');
    const say = (line: string) => io.err(`geoshard reindex: ${line}\n`);
    if (values.finalize && values.rollback) throw new CliError('geoshard reindex: --finalize and --rollback are exclusive: --rollback points the alias back, --finalize deletes the source', 2);
    const control = values.rethrottle !== undefined ? 'rethrottle' : values.pause ? 'pause' : null;
    if (control && (values.finalize || values.rollback || (values.rethrottle !== undefined && values.pause))) throw new CliError('geoshard reindex: --rethrottle, --pause, --finalize and --rollback are exclusive', 2);
    if (control) {
      for (const k of ['from', 'boundaries', 'alias', 'config', 'field', 'batch', 'concurrency', 'copy', 'throttle'] as const) {
        if (values[k] !== undefined) throw new CliError(`geoshard reindex: --${k} is not taken with --${control}: it acts on DEST's running copy (give --to DEST only)`, 2);
      }
      const rps = control === 'rethrottle' ? Number(values.rethrottle) : 0;
      if (control === 'rethrottle' && !(rps === -1 || (Number.isFinite(rps) && rps > 0))) throw new CliError(`geoshard reindex: --rethrottle "${values.rethrottle}" is not a throttle: expected documents per second > 0, or -1 for none`, 2);
      const client = (await clusterClient('reindex'));
      try {
        const found = await readReindex(client, dest);
        if (found === undefined) throw new CliError(`geoshard reindex: index "${dest}" (--to) does not exist on ${client.url}`);
        const task = found?.state?.copyTask;
        if (!found?.state || found.state.phase !== 'copying' || !task) throw new CliError(`geoshard reindex: index "${dest}" has no engine copy running (${found?.state ? `the reindex is at ${found.state.phase}${found.state.copyMode === 'engine' ? '' : ', copied by the client'}` : 'it records no reindex'}): --${control} acts on a copy started with --copy engine`);
        const st = await copyTaskStatus(client, task.id);
        if (!st || st.completed) throw new CliError(`geoshard reindex: the copy task ${task.id} of "${dest}" is ${st ? 'finished' : 'gone'}: run the reindex again to go on`);
        if (control === 'rethrottle') {
          await rethrottleCopy(client, task.id, rps);
          result(`the copy task ${task.id} into "${dest}" now runs at ${rps === -1 ? 'no throttle' : `at most ${rps} documents/s`}\n`, { outcome: 'rethrottled', index: dest, task: task.id, requestsPerSecond: rps });
        } else {
          await cancelCopy(client, task.id);
          result(`cancelled the copy task ${task.id} into "${dest}" (${st.written.toLocaleString('en-US')} of ${st.total.toLocaleString('en-US')} documents copied): run the reindex again to resume it\n`, { outcome: 'paused', index: dest, task: task.id, written: st.written, total: st.total });
        }
        return 0;
      } catch (e) {
        if (e instanceof OpenSearchError) throw new CliError(`geoshard reindex: ${e.message}`);
        throw e;
      } finally {
        await client.close().catch(() => {});
      }
    }
    const ending = values.finalize ? 'finalize' : values.rollback ? 'rollback' : null;
    if (ending) {
      for (const k of ['from', 'boundaries', 'alias', 'config', 'field', 'batch', 'concurrency', 'copy', 'throttle'] as const) {
        if (values[k] !== undefined) throw new CliError(`geoshard reindex: --${k} is not taken with --${ending}: DEST's _meta records the reindex (give --to DEST only)`, 2);
      }
    }
    const from = ending ? '' : name(values.from, 'from');
    const alias = values.alias !== undefined ? name(values.alias, 'alias') : undefined;
    if (!ending) {
      if (from === dest) throw new CliError(`geoshard reindex: --to "${dest}" is --from as well: the copy goes into a new index`, 2);
      if (alias === dest) throw new CliError(`geoshard reindex: --alias "${alias}" is --to as well: the alias is the name clients use, DEST an index behind it`, 2);
    }
    const batch = int(values.batch, 'batch', 'reindex', 5000, 100, 10_000);
    const copy = (values.copy ?? 'client') as CopyMode;
    if (!COPY_MODES.includes(copy)) throw new CliError(`geoshard reindex: --copy "${values.copy}" is not a copy mode: expected ${COPY_MODES.join(' or ')}`, 2);
    const throttle = values.throttle === undefined ? undefined : int(values.throttle, 'throttle', 'reindex', 0, 1, 10_000_000);
    if (throttle !== undefined && copy !== 'engine') throw new CliError('geoshard reindex: --throttle applies to --copy engine (the client copy runs at the pace of its --concurrency)', 2);
    const concurrency = int(values.concurrency, 'concurrency', 'reindex', 3, 1, 16);
    const staleMs = int(values['lock-stale-ms'], 'lock-stale-ms', 'reindex', DEFAULT_LOCK_STALE_MS, 1000, 3_600_000);
    const file = ending ? null : loadBoundaryFile(str(values.boundaries, 'boundaries', 'reindex'));
    if (file?.migration) throw new CliError(`geoshard reindex: --boundaries ${values.boundaries} has a migration field: give the settled file DEST is sharded by`, 2);
    const config = ending ? null : loadIndexConfig(values.config as string | undefined, { ...(values.field !== undefined ? { field: values.field as string } : {}) });
    const pause = pauseHook(io);
    const client = (await clusterClient('reindex'));
    try {
      if (ending) {
        const found = await readReindex(client, dest);
        if (found === undefined) throw new CliError(`geoshard reindex: index "${dest}" (--to) does not exist on ${client.url}`);
        if (!found?.state) throw new CliError(`geoshard reindex: index "${dest}" records no reindex: nothing to ${ending}`);
        await checkPrivileges(client, reindexEndProbes({ src: found.state.from, dest, lockIndex: readEnv('GEOSHARD_LOCK_INDEX') || LOCK_INDEX }), 'reindex');
        const lock = await acquireLock(client, found.state.from, staleMs, readEnv('GEOSHARD_LOCK_INDEX') || LOCK_INDEX, 'reindex');
        try {
          if (ending === 'finalize') await finalizeReindex(client, dest, say);
          else await rollbackReindex(client, dest, say);
        } finally {
          await lock.release().catch(() => {});
        }
        result(`${ending === 'finalize' ? 'finalized' : 'rolled back'} the reindex into "${dest}"\n`, { outcome: ending === 'finalize' ? 'finalized' : 'rolled-back', index: dest });
        return 0;
      }
      // SRC: an index, or an alias naming one.
      const srcExists = (await client.request('HEAD', `/${encodeURIComponent(from)}`, { okStatuses: [404] })).status !== 404;
      if (!srcExists) throw new CliError(`geoshard reindex: --from "${from}" does not exist on ${client.url}`);
      const fromTargets = await aliasTargets(client, from);
      if (fromTargets.length > 1) throw new CliError(`geoshard reindex: --from "${from}" is an alias of ${fromTargets.length} indexes (${fromTargets.join(', ')}): name the one index to copy`);
      const src = fromTargets.length === 1 ? fromTargets[0] : from;
      const clientsAlias = alias ?? (fromTargets.length === 1 ? from : undefined);
      if (!clientsAlias) {
        throw new CliError(
          `geoshard reindex: --alias is required: clients use the index "${src}" by its own name, and an alias cannot take the name of an index that exists. ` +
            `Give --alias NAME (a new name, such as "${src}-live"): it is added to "${src}" now so clients can move to it, moved to "${dest}" at the switch, ` +
            `and "geoshard reindex --to ${dest} --finalize" deletes "${src}" and gives "${src}" to "${dest}" as a second alias in the same _aliases call, so the old name works again.`,
          2,
        );
      }
      if (clientsAlias === src) throw new CliError(`geoshard reindex: --alias "${clientsAlias}" is the source index's own name: an alias cannot take it while "${src}" exists; give a new name (see --help)`, 2);
      const aliasIsIndex = (await client.request('HEAD', `/${encodeURIComponent(clientsAlias)}`, { okStatuses: [404] })).status !== 404;
      const aliasTo = await aliasTargets(client, clientsAlias);
      if (aliasIsIndex && aliasTo.length === 0) throw new CliError(`geoshard reindex: --alias "${clientsAlias}" is an index, not an alias: give the name of an alias (or a new name)`, 2);
      if (aliasTo.some((t) => t !== src && t !== dest)) throw new CliError(`geoshard reindex: --alias "${clientsAlias}" points at ${aliasTo.join(', ')}, not at the source "${src}": give the alias clients use for "${src}"`, 2);
      if (file!.index !== clientsAlias && file!.index !== src && file!.index !== from) {
        throw new CliError(`geoshard reindex: --boundaries ${values.boundaries} names index "${file!.index}", but clients will reach DEST through "${clientsAlias}": the API and searchers read the index the file names; give the file "index": "${clientsAlias}"`, 2);
      }
      // The location field must be a geo_point of SRC (the pipeline and the verify read it).
      const mapping = await client.get<Record<string, { mappings: Record<string, unknown> }>>(`/${encodeURIComponent(src)}/_mapping`);
      const mappings = Object.values(mapping)[0].mappings ?? {};
      for (const [flag, f] of [['location', config!.location], ...(config!.join ? [['join.childLocation', config!.join.childLocation]] : [])] as [string, string][]) {
        const t = typeAt(mappings, f);
        if (t !== 'geo_point') {
          throw new CliError(`geoshard reindex: ${flag === 'location' ? (values.field !== undefined ? '--field' : 'the config\'s location') : `the config's ${flag}`} "${f}" is ${t === undefined ? 'not a field of' : `a ${t} field in`} "${src}"'s mapping: expected a geo_point field (give it with --field F or --config)`, 2);
        }
      }
      // Every privilege and ability the reindex needs, checked before its first change (the lock).
      await checkPrivileges(client, reindexProbes({ src, dest, alias: clientsAlias, lockIndex: readEnv('GEOSHARD_LOCK_INDEX') || LOCK_INDEX, engineCopy: copy === 'engine' }), 'reindex');
      await checkPipelineModules(client);
      const lock = await acquireLock(client, src, staleMs, readEnv('GEOSHARD_LOCK_INDEX') || LOCK_INDEX, 'reindex');
      if (lock.tookOver) say(lock.tookOver);
      try {
        const others = (await reindexesOf(client, src)).filter((r) => r.index !== dest && r.state.phase !== 'rolled-back');
        if (others.length > 0) {
          const o = others[0];
          throw new CliError(`geoshard reindex: a reindex of "${src}" into "${o.index}" is ${o.state.phase === 'switched' ? 'switched and not finalized' : `in progress (${o.state.phase})`}: finish it (run it again, --finalize or --rollback with --to ${o.index}) before another`);
        }
        if (aliasTo.length === 0) {
          await client.admin('POST', '/_aliases', { body: { actions: [{ add: { index: src, alias: clientsAlias } }] } });
          say(`added the alias "${clientsAlias}" → "${src}": move clients to it now; it moves to "${dest}" at the switch`);
        }
        const t0 = performance.now();
        const r = await runReindex({
          client,
          from: src,
          to: dest,
          alias: clientsAlias,
          file: file!,
          location: config!.location,
          childLocation: config!.join?.childLocation ?? null,
          renameOnFinalize: fromTargets.length === 0,
          batch,
          concurrency,
          copy,
          requestsPerSecond: throttle,
          progress: say,
          pause,
          lockLost: lock.lost,
        });
        const copied = r.copied > 0 ? `, copied ${r.copied.toLocaleString('en-US')} documents at ${Math.round(r.docsPerSecond).toLocaleString('en-US')} documents/s` : '';
        const seconds = (performance.now() - t0) / 1000;
        result(
          `reindexed "${src}" into "${dest}" behind "${clientsAlias}" in ${seconds.toFixed(1)} s${copied}; writes blocked at the switch ${r.windowsMs.map((w) => `${w} ms`).join(', ') || '(none)'}. "${src}" is kept: "geoshard reindex --to ${dest} --finalize" deletes it, --rollback points "${clientsAlias}" back\n`,
          { outcome: 'reindexed', from: src, index: dest, alias: clientsAlias, seconds, copied: r.copied, docsPerSecond: r.docsPerSecond, writesBlockedMs: r.windowsMs },
        );
        return 0;
      } finally {
        await lock.release().catch(() => {});
      }
    } catch (e) {
      if (e instanceof ReindexError || e instanceof ShardReadError || e instanceof MigrationError || e instanceof PrivilegeError || e instanceof ClusterAbilityError) throw new CliError(`geoshard reindex: ${e.message}`);
      if (e instanceof OpenSearchError) throw new CliError(`geoshard reindex: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
      throw e;
    } finally {
      await client.close().catch(() => {});
    }
  },
};
