import { resolve, basename } from 'node:path';
import { spawn } from 'node:child_process';
import { parse, num } from '../args.ts';
// ROOT is io.ts's: the project root from src/cli/ and from the bundled dist/cli/ alike.
import { loadBoundaryFile, CliError, ROOT } from '../io.ts';
import type { Command, Io } from '../command.ts';
import { explorerStarter, type ExplorerServer } from './explore.ts';

export type { ExplorerServer };


/** What review needs from the world; tests pass their own. */
export interface ReviewDeps {
  /** Starts the built explorer serving `files` (URL path → absolute file path). */
  start: (opts: { port?: number; files: Record<string, string>; log: (line: string) => void }) => Promise<ExplorerServer>;
  /** Resolves when the person stops the command (Ctrl-C). */
  untilStopped: () => Promise<void>;
  /** Opens a URL in the person's browser. */
  open: (url: string) => void;
}


const defaultDeps: ReviewDeps = {
  // In a checkout, scripts/start.mjs; in an installed geoshard, the companion geoshard-explorer (as explore does).
  start: async (opts) => {
    const startExplorer = await explorerStarter(ROOT, 'review');
    try {
      return await startExplorer(opts);
    } catch (e) {
      throw new CliError(`geoshard review: cannot start the explorer: ${(e as Error).message}`);
    }
  },
  untilStopped: () =>
    new Promise((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    }),
  open: (url) => {
    const [cmd, ...args] = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', url] : ['xdg-open', url];
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {}); // no browser here: the printed URL is the way in
    child.unref();
  },
};

/** servedPath names a file under /review/ by its own name when that is a plain file name, else by `fallback`. */
function servedPath(path: string, folder: string, fallback: string): string {
  const name = basename(path);
  return `/review/${folder}${/^[\w-][\w.-]*\.json$/.test(name) ? name : fallback}`;
}

/**
 * reviewLink returns the paths the explorer serves the files at and the link
 * that opens the Review tab with them (a path relative to the server's root).
 */
export function reviewLink(candidatePath: string, currentPath: string | null): { files: Record<string, string>; query: string } {
  const files: Record<string, string> = {};
  const cand = servedPath(candidatePath, '', 'candidate.json');
  files[cand] = resolve(candidatePath);
  const q = new URLSearchParams({ candidate: cand });
  if (currentPath !== null) {
    const cur = servedPath(currentPath, 'current/', 'current.json');
    files[cur] = resolve(currentPath);
    q.set('boundaries', cur);
  }
  q.set('tab', 'review');
  return { files, query: '?' + q.toString().replace(/%2F/g, '/') };
}

/** runReview is the command with its world passed in (the CLI passes the real one). */
export async function runReview(argv: string[], io: Io, deps: ReviewDeps = defaultDeps): Promise<number> {
  const { values } = parse(argv, { candidate: { type: 'string' }, boundaries: { type: 'string' }, port: { type: 'string' }, open: { type: 'boolean' } }, 'review', false, { positional: ['candidate', 'boundaries'] });
  if (values.candidate === undefined) throw new CliError('geoshard review: --candidate FILE is required: the proposed boundary file (and, optionally, --boundaries CURRENT)\nRun "geoshard review --help" for usage.', 2);
  const port = values.port === undefined ? undefined : num(values.port, 'port', 'review');
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new CliError(`geoshard review: --port ${values.port} is not a port: expected an integer from 1 to 65535`, 2);
  const candidate = values.candidate as string;
  const current = (values.boundaries as string | undefined) ?? null;
  // Checked by the core before anything starts: a bad file is refused here, with every problem.
  loadBoundaryFile(candidate);
  if (current !== null) loadBoundaryFile(current);
  const { files, query } = reviewLink(candidate, current);
  const server = await deps.start({ port, files, log: (line) => io.err(line + '\n') });
  const url = server.url.replace(/\/$/, '') + '/' + query;
  io.out(`geoshard review: ${candidate}${current ? ` against ${current}` : ' against the bundled data/boundaries.json'}\n${url}\n(Ctrl-C to stop)\n`);
  if (values.open) deps.open(url);
  await deps.untilStopped();
  await server.close();
  return 0;
}

export const review: Command = {
  name: 'review',
  summary: 'open the explorer\'s Review tab on a candidate boundary file (serves it, prints the URL)',
  usage: `geoshard review --candidate FILE [--boundaries CURRENT] [--port N] [--open]

Checks CANDIDATE (and CURRENT) with the core's boundary reader, then starts the explorer (in a
checkout, the built app as npm start does, built first when the sources are newer; in an
installed geoshard, the companion package geoshard-explorer, as explore does) with the files
served at /review/<name>, and prints the link that opens the Review tab on them: what moves,
how even the shards become, the fan-out of both files. Runs until Ctrl-C.

  --candidate FILE     the proposed boundary file (required)
  --boundaries FILE    the file it would replace (default: the bundled data/boundaries.json);
                       the old positional form CANDIDATE [CURRENT] still works for this
                       release, with a notice
  --port N             serve on port N (default: PORT, else 5173)
  --open               also open the link in the default browser`,
  run: (argv, io) => runReview(argv, io),
};
