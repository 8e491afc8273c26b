/**
 * The `geoshard` command line: routing-core answers for people, scripts and CI.
 * main() returns the exit code by one rule (EXIT_CODES): 2 when the command line
 * itself is wrong, 1 when the input it reads is bad or a check or operation
 * fails, 0 on success. User errors print one clear message.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BoundaryFileError } from '../core/index.ts';
import { MissingPeerError } from '../data/optionalPeer.ts';
import { env } from '../cluster/env.ts';
import { CliError, problemLines, ROOT, version } from './io.ts';
import { setNoticeSink } from './args.ts';
import type { Command, Io } from './command.ts';
import { PRIVILEGED_COMMANDS, setPrivilegedCommand, type PrivilegedCommand } from '../cluster/privileges.ts';

/**
 * Every command, by name, loaded only when it runs: `geoshard route` must not pay
 * for the OpenSearch client or the data generator that `seed` needs (cold start
 * is measured by bench/cli.bench.ts). The order is the order of the help text.
 */
export const COMMAND_LOADERS: Map<string, () => Promise<Command>> = new Map([
  ['cover', async () => (await import('./commands/cover.ts')).cover],
  ['route', async () => (await import('./commands/route.ts')).route],
  ['shard-of', async () => (await import('./commands/shardOf.ts')).shardOf],
  ['cells', async () => (await import('./commands/cells.ts')).cells],
  ['balance', async () => (await import('./commands/balance.ts')).balance],
  ['validate', async () => (await import('./commands/validate.ts')).validate],
  ['hash', async () => (await import('./commands/hash.ts')).hash],
  ['seed', async () => (await import('./commands/seed.ts')).seed],
  ['bench', async () => (await import('./commands/bench.ts')).bench],
  ['verify-routing', async () => (await import('./commands/verifyRouting.ts')).verifyRouting],
  ['audit', async () => (await import('./commands/audit.ts')).audit],
  ['pipeline', async () => (await import('./commands/pipeline.ts')).pipeline],
  ['plugin', async () => (await import('./commands/plugin.ts')).plugin],
  ['searches', async () => (await import('./commands/searches.ts')).searches],
  ['golden', async () => (await import('./commands/golden.ts')).golden],
  ['diff', async () => (await import('./commands/diff.ts')).diff],
  ['plan', async () => (await import('./commands/plan.ts')).plan],
  ['migrate', async () => (await import('./commands/migrate.ts')).migrate],
  ['reindex', async () => (await import('./commands/reindex.ts')).reindex],
  ['split', async () => (await import('./commands/split.ts')).split],
  ['merge', async () => (await import('./commands/merge.ts')).merge],
  ['workload', async () => (await import('./commands/workload.ts')).workload],
  ['hotspots', async () => (await import('./commands/hotspots.ts')).hotspots],
  ['traffic', async () => (await import('./commands/traffic.ts')).traffic],
  ['check', async () => (await import('./commands/check.ts')).check],
  ['cache', async () => (await import('./commands/cache.ts')).cache],
  ['review', async () => (await import('./commands/review.ts')).review],
  ['explore', async () => (await import('./commands/explore.ts')).explore],
]);

/** loadCommands loads every command (for the help text and tests), in help order. */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all([...COMMAND_LOADERS.values()].map((load) => load()));
}

const processIo: Io = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
};

/** The exit-code rule every command follows (stated in --help and the CLI reference). */
export const EXIT_CODES: { code: number; meaning: string }[] = [
  { code: 0, meaning: 'success: the answer was printed, the check passed, the operation completed' },
  { code: 1, meaning: 'bad input or failure: a file, index or cluster the command reads is missing or invalid, a check failed (validate, check, audit, verify-routing, golden --check), or an operation failed' },
  { code: 2, meaning: 'usage: the command line itself is wrong (unknown command or option, a missing required option, an option value that is not valid for it, a stray argument)' },
];


async function help(): Promise<string> {
  const commands = await loadCommands();
  const w = Math.max(...commands.map((c) => c.name.length));
  return `geoshard: route, cover and balance a geosharded OpenSearch index (S2 level-10 cells in Hilbert order)

Usage: geoshard <command> [options]      geoshard help <command>      geoshard --version

Commands:
${commands.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`).join('\n')}

Exit codes: ${EXIT_CODES.map((e) => `${e.code} ${e.meaning.split(':')[0]}`).join(', ')}.
`;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    io.out(`geoshard ${version()}\n`);
    return 0;
  }
  if (name === 'help' && rest.length > 0) {
    const load = COMMAND_LOADERS.get(rest[0]);
    if (!load) {
      io.err(`geoshard help: unknown command "${rest[0]}"\n\n${await help()}`);
      return 2;
    }
    io.out((await load()).usage + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? io.out : io.err)(await help());
    return name ? 0 : 2;
  }
  const load = COMMAND_LOADERS.get(name);
  if (!load) {
    io.err(`geoshard: unknown command "${name}"\n\n${await help()}`);
    return 2;
  }
  const cmd = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(cmd.usage + '\n');
    return 0;
  }
  // A refusal for a missing privilege names this command's documented role (docs/security.md).
  setPrivilegedCommand((PRIVILEGED_COMMANDS as readonly string[]).includes(name) ? (name as PrivilegedCommand) : null);
  setNoticeSink(io.err);
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof CliError) {
      // Messages from the shared helpers (reading, writing) get the command's name in front.
      io.err(`${e.message.startsWith('geoshard ') ? '' : `geoshard ${name}: `}${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof MissingPeerError) {
      // An optional peer dependency (the OpenSearch client, the gazetteer) the command needs: say what to install.
      io.err(`geoshard ${name}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof BoundaryFileError) {
      // The first line names the file and the count; list at most the first problems.
      io.err(`geoshard ${name}: ${e.message.split('\n', 1)[0]}\n${problemLines(e.errors)}`);
      return 1;
    }
    if (e instanceof RangeError && !/call stack|string length|array length/i.test(e.message)) {
      // The core's RangeErrors name the input at fault (a latitude, a radius, a cells-file line).
      io.err(`geoshard ${name}: ${e.message}\n`);
      return 1;
    }
    // Last resort: a defect or an unexpected failure. One line, no stack unless GEOSHARD_DEBUG=1.
    const debug = env('GEOSHARD_DEBUG') === '1';
    const first = String((e as Error)?.message ?? e).split('\n', 1)[0];
    io.err(`geoshard ${name}: internal error: ${first}${debug ? '' : ' (set GEOSHARD_DEBUG=1 for details)'}\n`);
    if (debug) io.err(`${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}
