import { plan as makePlan } from '../../core/index.ts';
import { startState, MOVE_STEPS, type MigrationState } from '../../core/migrationState.ts';
import { parse, int, str } from '../args.ts';
import { loadBoundaryFile, loadCells, DEFAULT_CELLS, CliError, INDEX_CONFIG_OPTIONS, INDEX_CONFIG_USAGE, indexConfigOf, requireFileIndex } from '../io.ts';
import type { Command, Io } from '../command.ts';
import { planText } from './plan.ts';
import { tryInstallPipeline } from '../../ops/routing/pipelineInstall.ts';
import { aliasTargets } from '../../ops/reindex/reindex.ts';
import { runMigration, withState, PAUSE_POINTS, type PausePoint } from '../../ops/migrate/migration.ts';
import { checkPrivileges, migrateProbes, PrivilegeError } from '../../cluster/privilegeChecks.ts';
import { env as readEnv } from '../../cluster/env.ts';
import { acquireLock, LOCK_INDEX } from '../../ops/migrate/migrationLock.ts';
import { readMigration } from '../../opensearch/indexMeta.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import { fieldsOfMeta, MigrationError } from '../../opensearch/meta.ts';
import { DEFAULT_SEARCH_TIMEOUT_MS } from '../../server/search/searchBody.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { clusterClient } from '../clusterClient.ts';

/** Default wait after publishing dual-write and switched: a search deadline plus a second. */
const DEFAULT_GRACE_MS = DEFAULT_SEARCH_TIMEOUT_MS + 1000;
/** Default age of a heartbeat after which another host's lock is stale. */
const DEFAULT_LOCK_STALE_MS = 30_000;

/**
 * pauseHook reads GEOSHARD_MIGRATE_PAUSE=<point>[:<range>] (points: copying, after the first
 * copy batch is written and recorded; verified, after verified is published and before the
 * switch; deleting, after the range's dishes are deleted and before its restaurants; range:
 * 1-based, default 1). At that point the process writes "geoshard migrate: paused at ..." to
 * stderr and waits forever: a test kills it there (kill -9) and runs the command again.
 */
function pauseHook(io: Io, env = process.env): ((point: PausePoint, move: number) => Promise<void>) | undefined {
  const v = readEnv('GEOSHARD_MIGRATE_PAUSE', env);
  if (!v) return undefined;
  const [point, range = '1'] = v.split(':');
  if (!(PAUSE_POINTS as readonly string[]).includes(point) || !/^[1-9]\d*$/.test(range)) {
    throw new CliError(`geoshard migrate: GEOSHARD_MIGRATE_PAUSE ${JSON.stringify(v)} is invalid: expected <point>[:<range>] with point one of ${PAUSE_POINTS.join(', ')} and range a 1-based number`, 2);
  }
  return (p, k) => {
    if (p !== point || k + 1 !== Number(range)) return Promise.resolve();
    io.err(`geoshard migrate: paused at ${p} of range ${k + 1} (pid ${process.pid})\n`);
    // A pending promise alone does not keep Node running: hold the event loop open until killed.
    return new Promise(() => void setInterval(() => {}, 60_000));
  };
}

function stateText(s: MigrationState): string {
  let out = `migration in progress: epoch ${s.epoch}, started ${s.startedAt}, target ${s.target.slice(0, 12)}\n`;
  s.moves.forEach((m, k) => {
    out += `  range ${k + 1}: [${m.start}, ${m.end ?? 'end'}) ${m.from} → ${m.to}: ${m.step} (step ${MOVE_STEPS.indexOf(m.step)}/${MOVE_STEPS.length - 1}), copied ${m.copied.restaurants + m.copied.dishes}`;
    out += m.verified ? `, verified ${m.verified.from.restaurants} restaurants + ${m.verified.from.dishes} dishes on both owners\n` : '\n';
  });
  return out;
}

export const migrate: Command = {
  name: 'migrate',
  summary: 'move ranges between shards of the live index to a candidate boundary file, searches answering right throughout',
  usage: `geoshard migrate --candidate FILE [--dry-run] [--boundaries FILE] [--cells FILE] [--batch N] [--grace-ms MS] [--lock-stale-ms MS] [--config FILE] [--json]

Executes the plan (see "geoshard plan") from the boundary file the index was seeded with (its
_meta) to CANDIDATE, on the real index, for a change with the same index and shard count. For
each moving range, one at a time: dual writes on, copy every document of the range (a join's
parents, then its children) to the new owner (routed by the new owner's name, create-only),
verify the range per document on both owners under a brief write block, switch reads to the new owner (a new epoch), dual writes off, delete the range
from the old owner. The index's _meta records the state after every step: the live API and any
other process read it, and a migration killed at any point resumes when run again. A last step
writes the candidate as the index's boundary file. Progress per step and range goes to stderr.

Refused: a change of shard count (the reindex plan is printed instead); a second migration
while one runs (a lock document in ${'geoshard-migration-locks'}, taken over only when its holder
is gone: a dead process on this host, or no heartbeat for --lock-stale-ms); a candidate other
than the target of the migration in progress.

  --candidate FILE     the candidate boundary file (required; the old name --to still works for
                       this release, with a notice)
  --dry-run            print the plan and the migration's state; change nothing
  --boundaries FILE    the settled boundary file, for an index seeded before _meta held the file
                       (its hash must be the index's _meta hash; the old name --from still works)
  --cells FILE         cells file for the counts the plan expects (default data/cells.csv)
  --batch N            documents per copy request (default 500; a join's children 10x), [1, 10000]
  --grace-ms MS        wait after publishing dual writes and the switch, so every search in flight
                       runs the new epoch (default ${DEFAULT_GRACE_MS}: the API's search deadline + 1 s)
  --lock-stale-ms MS   another host's lock is stale after this long without a heartbeat (default ${DEFAULT_LOCK_STALE_MS})
  --json               print the outcome as JSON: { "index", "outcome", "candidate", ... }
${INDEX_CONFIG_USAGE}
                 The config's index must be the candidate's, and its location (and join's
                 childLocation) the fields the index routes by (its _meta, from geoshard reindex).
                 Any shape works: a flat index, or a join whose children carry their parent's
                 point; which documents are a range's the cluster computes from those fields.

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), as for "geoshard seed".`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      { candidate: { type: 'string' }, 'dry-run': { type: 'boolean' }, boundaries: { type: 'string' }, json: { type: 'boolean' }, cells: { type: 'string' }, batch: { type: 'string' }, 'grace-ms': { type: 'string' }, 'lock-stale-ms': { type: 'string' }, ...INDEX_CONFIG_OPTIONS },
      'migrate',
      false,
      { renamed: { to: 'candidate', from: 'boundaries' } },
    );
    const candidate = loadBoundaryFile(str(values.candidate, 'candidate', 'migrate'));
    const { config, given } = indexConfigOf(values, 'migrate');
    if (given) requireFileIndex(config, candidate, values.candidate as string, 'migrate');
    const batch = int(values.batch, 'batch', 'migrate', 500, 1, 10_000);
    const graceMs = int(values['grace-ms'], 'grace-ms', 'migrate', DEFAULT_GRACE_MS, 0, 600_000);
    const staleMs = int(values['lock-stale-ms'], 'lock-stale-ms', 'migrate', DEFAULT_LOCK_STALE_MS, 1000, 3_600_000);
    const pause = pauseHook(io);
    if (candidate.migration) throw new CliError(`geoshard migrate: ${values.candidate} has a migration field: the candidate is the settled file a migration ends with`);
    const client = await clusterClient('migrate');
    const index = candidate.index;
    const say = (line: string) => io.err(`geoshard migrate: ${line}\n`);
    /** The result: a line of text, or with --json one object (every outcome names the index and the candidate). */
    const done = (outcome: string, text: string, extra: Record<string, unknown> = {}) => {
      io.out(values.json ? JSON.stringify({ index, outcome, candidate: { hash: candidate.hash, version: candidate.version }, ...extra }, null, 2) + '\n' : text);
      return 0;
    };
    try {
      const found = await readMigration(client, index);
      if (found === undefined) throw new CliError(`geoshard migrate: index "${index}" (named by the candidate) does not exist on ${client.url}: seed it first ("geoshard seed")`);
      let { meta, base, state } = found;
      if (given) {
        // The config describes the index the migration moves documents of: the fields it routes by must be the index's.
        const shape = fieldsOfMeta(meta);
        const problems: string[] = [];
        if (config.location !== shape.location) problems.push(`location ${JSON.stringify(config.location)}: expected ${JSON.stringify(shape.location)}`);
        const child = config.join?.childLocation ?? null;
        if (child !== shape.childLocation) problems.push(`join.childLocation ${JSON.stringify(child)}: expected ${JSON.stringify(shape.childLocation)}`);
        if (problems.length > 0) throw new CliError(`geoshard migrate: the index config does not describe index "${index}", which routes by the fields in its _meta (set by geoshard seed or reindex):\n  ${problems.join('\n  ')}`, 1);
      }
      if (!state && meta.hash === candidate.hash) return done('unchanged', `index "${index}" already uses the candidate ${candidate.hash.slice(0, 12)} (version ${candidate.version}): nothing to do\n`);
      if (values.boundaries !== undefined) {
        const given = loadBoundaryFile(values.boundaries as string);
        if (given.hash !== meta.hash) throw new CliError(`geoshard migrate: --boundaries ${values.boundaries} has hash ${given.hash}, but index "${index}" was seeded with ${meta.hash} (version ${meta.version})`);
        base ??= given;
      }
      if (!base) throw new CliError(`geoshard migrate: index "${index}" _meta does not hold its boundary file (seeded by an older geoshard): give it with --boundaries FILE (hash ${meta.hash})`);
      if (state && state.target !== candidate.hash) {
        throw new CliError(
          `geoshard migrate: a migration of "${index}" to ${state.target} is in progress (epoch ${state.epoch}); ${values.candidate} is ${candidate.hash}. ` +
            `Finish it first: geoshard migrate --candidate <the file with hash ${state.target}>`,
        );
      }
      const p = makePlan(base, candidate, loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS));
      if (p.kind === 'reindex') {
        // The exact command: through the alias when clients already use one, else a new alias name (see geoshard reindex --help).
        const viaAlias = (await aliasTargets(client, index)).length === 1;
        const dest = `${index}-v${candidate.version}`;
        const command = `npx geoshard reindex --from ${index} --to ${dest} --boundaries ${values.candidate}${viaAlias ? '' : ` --alias ${index}-live`}`;
        throw new CliError(
          `geoshard migrate: refused: ${p.reindex}. Ranges move in place only between shards of one index; this change needs a new index: run\n\n  ${command}\n\n` +
            `(it copies "${index}" into "${dest}" with ${candidate.numberOfShards} shards while clients write, verifies it per document and switches ${viaAlias ? `the alias "${index}"` : `a new alias "${index}-live" (clients move to it; --finalize later gives "${index}" to the new index too)`} in one _aliases call). The reindex plan:\n\n${planText(p)}`,
        );
      }
      if (values['dry-run']) return done('dry-run', planText(p) + (state ? stateText(state) : 'no migration in progress: running without --dry-run starts at step 1\n'), { plan: p, state: state ?? null });
      // Every privilege the migration needs, checked before its first change (the lock).
      await checkPrivileges(client, migrateProbes({ index, lockIndex: readEnv('GEOSHARD_LOCK_INDEX') || LOCK_INDEX }), 'migrate');
      const lock = await acquireLock(client, index, staleMs);
      if (lock.tookOver) say(lock.tookOver);
      try {
        // Read again under the lock: the state is the one the last holder wrote.
        const again = (await readMigration(client, index))!;
        meta = again.meta;
        state = again.state;
        if (!state && meta.hash === candidate.hash) return done('unchanged', `index "${index}" already uses the candidate ${candidate.hash.slice(0, 12)}: nothing to do\n`);
        if (p.kind === 'none') {
          // Only names or metadata change: no document moves.
          await writeMeta(client, index, { ...withState(meta, null), hash: candidate.hash, version: candidate.version, file: candidate });
          // The routing pipeline names the file it routes with: the candidate now.
          const installed = await tryInstallPipeline(client, index, candidate, null);
          if ('error' in installed) say(`no routing pipeline on "${index}": ${installed.error}`);
          return done('renamed', `no document changes shard: index "${index}" now uses the candidate ${candidate.hash.slice(0, 12)}\n`);
        }
        if (!state) {
          state = startState(base, candidate, p.moves, new Date().toISOString());
          meta = withState(meta, state);
          await writeMeta(client, index, meta);
          say(`started: ${p.moves.length} range(s), ${p.totals.documents.toLocaleString('en-US')} documents in the cells file (${(100 * p.totals.share).toFixed(2)}%)`);
        } else say(`resuming at epoch ${state.epoch}: ${state.moves.map((m, k) => `range ${k + 1} ${m.step}`).join(', ')}`);
        const t0 = performance.now();
        await runMigration({ client, base, candidate, state, meta, graceMs, batch, progress: say, pause, lockLost: lock.lost });
        const seconds = (performance.now() - t0) / 1000;
        return done('migrated', `migrated index "${index}" to ${candidate.hash.slice(0, 12)} (version ${candidate.version}): ${p.moves.length} range(s) in ${seconds.toFixed(1)} s\n`, { ranges: p.moves.length, seconds });
      } finally {
        await lock.release().catch(() => {});
      }
    } catch (e) {
      if (e instanceof MigrationError || e instanceof PrivilegeError) throw new CliError(`geoshard migrate: ${e.message}`);
      if (e instanceof OpenSearchError) throw new CliError(`geoshard migrate: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
      if (e instanceof RangeError && !(e instanceof CliError)) throw new CliError(`geoshard migrate: ${e.message}`);
      throw e;
    } finally {
      await client.close().catch(() => {});
    }
  },
};
