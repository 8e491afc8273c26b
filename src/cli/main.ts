/**
 * The `geoshard` command line: routing-core answers for people, scripts and CI.
 * main() returns the exit code; user errors print one clear message and exit
 * non-zero (2 for usage errors, 1 for bad input or failures).
 */
import { BoundaryFileError } from '../core/index.ts';
import { CliError, problemLines } from './io.ts';
import type { Command, Io } from './command.ts';
import { cover } from './commands/cover.ts';
import { route } from './commands/route.ts';
import { shardOf } from './commands/shardOf.ts';
import { balance } from './commands/balance.ts';
import { validate } from './commands/validate.ts';
import { hash } from './commands/hash.ts';
import { seed } from './commands/seed.ts';
import { verifyRouting } from './commands/verifyRouting.ts';
import { searches } from './commands/searches.ts';
import { golden } from './commands/golden.ts';
import { diff } from './commands/diff.ts';
import { plan } from './commands/plan.ts';
import { split } from './commands/split.ts';
import { merge } from './commands/merge.ts';
import { workload } from './commands/workload.ts';
import { hotspots } from './commands/hotspots.ts';
import { check } from './commands/check.ts';
import { cache } from './commands/cache.ts';

export const COMMANDS: Command[] = [cover, route, shardOf, balance, validate, hash, seed, verifyRouting, searches, golden, diff, plan, split, merge, workload, hotspots, check, cache];

const processIo: Io = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
};

function help(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  return `geoshard: route, cover and balance a geosharded OpenSearch index (S2 level-10 cells in Hilbert order)

Usage: geoshard <command> [options]      geoshard <command> --help

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`).join('\n')}
`;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(`geoshard: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(cmd.usage + '\n');
    return 0;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof CliError) {
      // Messages from the shared helpers (reading, writing) get the command's name in front.
      io.err(`${e.message.startsWith('geoshard ') ? '' : `geoshard ${name}: `}${e.message}\n`);
      return e.exitCode;
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
    const debug = process.env.GEOSHARD_DEBUG === '1';
    const first = String((e as Error)?.message ?? e).split('\n', 1)[0];
    io.err(`geoshard ${name}: internal error: ${first}${debug ? '' : ' (set GEOSHARD_DEBUG=1 for details)'}\n`);
    if (debug) io.err(`${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}
