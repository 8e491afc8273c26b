import { basename, join, resolve } from 'node:path';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse } from '../args.ts';
import { CliError, ROOT, DEFAULT_BOUNDARIES, DEFAULT_CELLS, loadIndexConfig, requireFileIndex, problemLines, readText, writeFileAtomic, MAX_DATA_FILE_BYTES, MAX_BOUNDARY_FILE_BYTES } from '../io.ts';
import { BoundaryFileError, parseBoundaryFile, parseCellsCsv, type BoundaryFile, type CellWeight } from '../../core/index.ts';
import type { IndexConfig } from '../../opensearch/indexConfig.ts';
import type { Command, Io } from '../command.ts';
import { env as readEnv } from '../../cluster/env.ts';
import { clusterClient } from '../clusterClient.ts';

/** The paths the explorer serves the user's files at (src/server/staticFiles.ts servedFiles), and the page names them by. */
export const SERVED_BOUNDARIES = '/explore/boundaries.json';
export const SERVED_CELLS = '/explore/cells.csv';

/** What the cluster check found: a sentence for stderr when live searches will be refused (drift), else null. */
export interface ClusterReport {
  url: string;
  /** The index's documents, as the cluster counts them. */
  docs: number;
  /** Why live searches will be refused (the drift guard's sentence), or null when they will be answered. */
  refusal: string | null;
}

/** What explore needs from the world; tests pass their own. */
/** A running explorer: its address and how to stop it (scripts/start.mjs startExplorer). */
export interface ExplorerServer {
  url: string;
  close: () => Promise<void> | void;
}

export interface ExploreDeps {
  /** Starts the built explorer serving `files` (URL path → absolute path), with `page` written into its page and `env` set for its API. */
  start: (opts: { port?: number; files: Record<string, string>; page?: object | null; env?: Record<string, string>; log: (line: string) => void }) => Promise<ExplorerServer>;
  /**
   * Checks the index on the cluster at `url` before anything starts: it exists, its location
   * field is a geo_point; reports whether it was written with `file`. Throws a CliError naming
   * the index or field otherwise.
   */
  checkCluster: (config: IndexConfig, file: BoundaryFile, url: string) => Promise<ClusterReport>;
  /** Resolves when the person stops the command (Ctrl-C). */
  untilStopped: () => Promise<void>;
  /** Opens a URL in the person's browser. */
  open: (url: string) => void;
}


/**
 * checkCluster (the real one): the index's mapping through the cells reader's
 * check (src/ops/cells/cellsReader.ts checkGeoFields: the index or alias exists,
 * the location field is a geo_point in each index it names), its count, and
 * the drift guard's verdict on its `_meta` (src/server/driftGuard.ts).
 */
export async function checkCluster(config: IndexConfig, file: BoundaryFile, url: string): Promise<ClusterReport> {
  const { OpenSearchError } = await import('../../cluster/clientErrors.ts');
  const { checkGeoFields, CellsReadError } = await import('../../ops/cells/cellsReader.ts');
  const { fetchIndexMeta } = await import('../../opensearch/indexMeta.ts');
  const { driftState } = await import('../../server/driftGuard.ts');
  const client = await clusterClient('explore', { env: { ...process.env, OPENSEARCH_URL: url }, exitCode: 2 });
  try {
    await checkGeoFields(client, config);
    const count = await client.request<{ count: number }>('GET', `/${encodeURIComponent(config.index)}/_count`);
    const drift = driftState(file, await fetchIndexMeta(client, file.index));
    return { url: client.url, docs: count.body.count, refusal: drift.status === 'ok' ? null : drift.message };
  } catch (e) {
    if (e instanceof CellsReadError) throw new CliError(`geoshard explore: ${e.message}`);
    if (e instanceof OpenSearchError) {
      throw new CliError(`geoshard explore: OpenSearch at ${client.url} (OPENSEARCH_URL or --opensearch): ${e.message}${e.kind === 'unreachable' ? '\nStart the node, correct the URL, or leave OPENSEARCH_URL unset to explore the files alone.' : ''}`);
    }
    throw e;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * explorerStarter returns the function that serves the explorer: in a checkout of geoshard,
 * scripts/start.mjs (Vite's preview of dist/app, built first when stale); in an installed
 * geoshard, the companion package geoshard-explorer (its built app and node:http server,
 * src/server/explorerServer.ts), which must be installed beside it at the same version, else a
 * CliError (exit 1) says what to install.
 */
export async function explorerStarter(root = ROOT, command = 'explore'): Promise<ExploreDeps['start']> {
  const script = resolve(root, 'scripts', 'start.mjs');
  if (existsSync(script)) return ((await import(script)) as { startExplorer: ExploreDeps['start'] }).startExplorer;
  const { importExplorer, MissingExplorerError } = await import('../../data/optionalPeer.ts');
  const version = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }).version;
  try {
    return (await importExplorer<{ startExplorer: ExploreDeps['start'] }>(version)).startExplorer;
  } catch (e) {
    if (e instanceof MissingExplorerError) throw new CliError(`geoshard ${command}: ${e.message}`);
    throw e;
  }
}

const defaultDeps: ExploreDeps = {
  start: async (opts) => {
    const startExplorer = await explorerStarter();
    try {
      return await startExplorer(opts);
    } catch (e) {
      const m = (e as Error).message;
      throw new CliError(`geoshard explore: cannot start the explorer: ${/already in use/i.test(m) && opts.port ? `--port ${opts.port} is taken by another program: give another port (an integer from 1 to 65535)` : m}`);
    }
  },
  checkCluster,
  untilStopped: () =>
    new Promise((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    }),
  open: (url) => {
    void import('node:child_process').then(({ spawn }) => {
      const [cmd, ...args] = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', url] : ['xdg-open', url];
      const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
      child.on('error', () => {}); // no browser here: the printed URL is the way in
      child.unref();
    });
  },
};

/**
 * readBoundaries reads --boundaries: a boundary file (JSON, checked by the
 * core). A cells file or any other text is refused naming the flag and what
 * the file looks like.
 */
export function readBoundaries(path: string): BoundaryFile {
  const text = readText(path, 'boundary file (--boundaries)', MAX_BOUNDARY_FILE_BYTES);
  const head = text.trimStart();
  if (/^token,/.test(head)) {
    throw new CliError(`--boundaries ${path} is a cells file (header "${head.split(/\r?\n/, 1)[0].slice(0, 60)}"), not a boundary file: give the JSON file "geoshard balance" writes as --boundaries, and this file as --cells`);
  }
  if (!head.startsWith('{')) {
    throw new CliError(`--boundaries ${path} is not a boundary file: it does not start with "{" (a boundary file is the JSON object "geoshard balance" writes, with format, index, level, boundaries and shards)`);
  }
  try {
    return parseBoundaryFile(text, path);
  } catch (e) {
    if (e instanceof BoundaryFileError) throw new CliError(`--boundaries ${e.message.split('\n', 1)[0]}\n${problemLines(e.errors).trimEnd()}`);
    throw e;
  }
}

/**
 * readCells reads --cells: a cells file of either header (token,docs[,...]
 * or token,restaurants,dishes), checked by the core's parseCellsCsv. A
 * boundary file (JSON) or any other text is refused naming the flag.
 */
export function readCells(path: string): CellWeight[] {
  const text = readText(path, 'cells file (--cells)', MAX_DATA_FILE_BYTES);
  if (/^\s*[{[]/.test(text)) {
    throw new CliError(`--cells ${path} is JSON (a boundary file?), not a cells file: give the CSV "geoshard cells" writes (header token,docs) or one of header token,restaurants,dishes as --cells, and a boundary file as --boundaries`);
  }
  try {
    return parseCellsCsv(text, path);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(`--cells ${e.message}`);
    throw e;
  }
}

/**
 * resolveConfig returns the index the explorer's live mode searches: the
 * config file (--config) or, without one, the index the boundary file names
 * (with the sample's fields, or flat when --field names the location), with
 * --index and --field applied. The index must be the boundary file's: the
 * drift guard checks that index's `_meta` against the file.
 */
export function resolveConfig(file: BoundaryFile, boundariesPath: string, values: { config?: string; index?: string; field?: string }): IndexConfig {
  const config = loadIndexConfig(values.config, { index: values.index ?? (values.config === undefined ? file.index : undefined), field: values.field }, undefined, 'explore');
  requireFileIndex(config, file, boundariesPath, 'explore');
  return config;
}

/** runExplore is the command with its world passed in (the CLI passes the real one). */
export async function runExplore(argv: string[], io: Io, deps: ExploreDeps = defaultDeps, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      boundaries: { type: 'string' },
      cells: { type: 'string' },
      index: { type: 'string' },
      field: { type: 'string' },
      config: { type: 'string' },
      port: { type: 'string' },
      opensearch: { type: 'string' },
      open: { type: 'boolean' },
    },
    'explore',
    true,
  );
  if (positionals.length > 0) throw new CliError(`geoshard explore: unexpected argument ${JSON.stringify(positionals[0])}: name the files with --boundaries FILE and --cells FILE\nRun "geoshard explore --help" for usage.`, 2);
  // Neither file: the bundled sample (its boundary file and cells), as npm start shows it in a checkout.
  const bundled = values.boundaries === undefined && values.cells === undefined;
  if (bundled) {
    values.boundaries = DEFAULT_BOUNDARIES;
    values.cells = DEFAULT_CELLS;
  }
  for (const flag of ['boundaries', 'cells'] as const) {
    if (values[flag] === undefined || values[flag] === '') throw new CliError(`geoshard explore: --${flag} is required with --${flag === 'boundaries' ? 'cells' : 'boundaries'} (${flag === 'boundaries' ? 'the boundary file "geoshard balance" wrote' : 'the cells file "geoshard cells" wrote'}); give neither to open the bundled sample\nRun "geoshard explore --help" for usage.`, 2);
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = /^\d+$/.test(values.port) ? Number(values.port) : NaN;
    if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new CliError(`geoshard explore: --port ${JSON.stringify(values.port)} is not a port: expected an integer from 1 to 65535`, 2);
  }
  let opensearch: string | undefined = readEnv('OPENSEARCH_URL', env)?.trim() || undefined;
  if (values.opensearch !== undefined) {
    let u: URL | null = null;
    try {
      u = new URL(values.opensearch);
    } catch {
      // refused below
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new CliError(`geoshard explore: --opensearch ${JSON.stringify(values.opensearch)} is not an http(s) URL: expected e.g. http://127.0.0.1:9200`, 2);
    opensearch = values.opensearch;
  }
  const boundariesPath = values.boundaries as string;
  const cellsPath = values.cells as string;
  // Every check before anything starts: a bad file, config or index starts nothing.
  const file = readBoundaries(boundariesPath);
  const cells = readCells(cellsPath);
  const config = resolveConfig(file, boundariesPath, values);
  const report = opensearch === undefined ? null : await deps.checkCluster(config, file, opensearch);
  if (report?.refusal) io.err(`geoshard explore: warning: the explorer shows the files, but live searches will be refused: ${report.refusal}\n`);

  const apiEnv: Record<string, string> = { GEOSHARD_BOUNDARIES: resolve(boundariesPath), ...(opensearch !== undefined ? { OPENSEARCH_URL: opensearch } : {}) };
  // The API reads the index description from a file (GEOSHARD_CONFIG): the --config file itself when no flag changes it, else the resolved one.
  let tmp: string | null = null;
  const asGiven = values.config !== undefined && values.index === undefined && values.field === undefined;
  if (asGiven) apiEnv.GEOSHARD_CONFIG = resolve(values.config as string);
  else {
    tmp = mkdtempSync(join(tmpdir(), 'geoshard-explore-'));
    apiEnv.GEOSHARD_CONFIG = join(tmp, 'geoshard.config.json');
    writeFileAtomic(apiEnv.GEOSHARD_CONFIG, JSON.stringify(config, null, 2) + '\n', 'index config');
  }
  const files = { [SERVED_BOUNDARIES]: resolve(boundariesPath), [SERVED_CELLS]: resolve(cellsPath) };
  const page = { boundaries: { url: SERVED_BOUNDARIES, name: basename(boundariesPath) }, cells: { url: SERVED_CELLS, name: basename(cellsPath) } };
  let server: ExplorerServer;
  try {
    server = await deps.start({ port, files, page, env: apiEnv, log: (line) => io.err(line + '\n') });
  } catch (e) {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const docs = cells.reduce((n, c) => n + c.restaurants + c.dishes, 0);
  io.out(
    (bundled ? 'geoshard explore: the bundled sample (no --boundaries or --cells given)\n' : '') +
    `geoshard explore: boundary file ${boundariesPath} (index ${file.index}, ${file.numberOfShards} shards, hash ${file.hash.slice(0, 12)}), cells ${cellsPath} (${cells.length.toLocaleString('en-US')} cells, ${docs.toLocaleString('en-US')} documents)\n` +
      (report
        ? `live mode: index "${config.index}" (field ${config.location}, ${report.docs.toLocaleString('en-US')} documents) on ${report.url}\n`
        : `live mode: no OpenSearch URL given (OPENSEARCH_URL or --opensearch): the explorer shows the files; its Live panel asks the default local node\n`) +
      `${server.url}\n(Ctrl-C to stop)\n`,
  );
  if (values.open) deps.open(server.url);
  try {
    await deps.untilStopped();
    await server.close();
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
  return 0;
}

export const explore: Command = {
  name: 'explore',
  summary: 'open the explorer on your boundary file, cells file and index (serves them, prints the URL)',
  usage: `geoshard explore [--boundaries FILE --cells FILE] [--index I] [--field F | --config FILE]
                 [--opensearch URL] [--port N] [--open]

With neither --boundaries nor --cells, it opens the bundled sample (the package's
data/boundaries.json and data/cells.csv, index "dishes"), as npm start does in a checkout.

Checks the files (the core's readers), and, when an OpenSearch URL is set, the index (it exists,
its location field is a geo_point), then starts the explorer (in a checkout, the built app as
npm start does, built first when the sources are newer; in an installed geoshard, the companion
package geoshard-explorer: npm install geoshard-explorer) with the files in place of the bundled data:
the globe, the index bar, the Hilbert ribbon, Review, the fan-out map, Requests and Nodes come
from them, and its Live panel searches the index, routed with the boundary file and across
all shards. Prints the URL; runs until Ctrl-C. An index not written with this boundary file
opens too, but its live searches are refused (the drift guard) until it is reindexed.

  --boundaries F  the boundary file ("geoshard balance" wrote it)
  --cells F       the cells file, header token,docs ("geoshard cells") or token,restaurants,dishes
  --index I       the index (or alias) to search: must be the one the boundary file names
                  (default: the boundary file's, or the config's)
  --field F       its geo_point field (default: the config's location; without --config, the
                  sample's "location")
  --config FILE   geoshard.config.json: index, location, weight, name, join, facets
  --opensearch U  the cluster (default: OPENSEARCH_URL; unset: the files alone, no index checks)
  --port N        serve on port N (default: PORT, else 5173)
  --open          also open the URL in the default browser

OpenSearch: OPENSEARCH_URL, OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  run: (argv, io) => runExplore(argv, io),
};
