/** File helpers shared by the CLI commands: reading inputs with clear errors, validated and atomic writes. */
import { closeSync, fchmodSync, fchownSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBoundaryFile, parseCellsCsv, formatBoundaryFile, Router, BoundaryFileError, MAX_BOUNDARY_FILE_BYTES, type BoundaryFile, type CellWeight } from '../core/index.ts';
import { MAX_LISTED_PROBLEMS } from '../core/boundaries.ts';
import { SAMPLE_CONFIG, parseIndexConfig, withOverrides, IndexConfigError, type IndexConfig, type IndexConfigOverrides } from '../opensearch/indexConfig.ts';
import { checkBoundaryFile } from '../core/boundaries.ts';

/** The core's limits on boundary files, which the CLI checks before reading one. */
export { MAX_BOUNDARY_FILE_BYTES, MAX_LISTED_PROBLEMS };

/** The repository root (two levels above this file). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Default inputs, relative to the repository root. */
/** version is the package's version, from package.json. */
export function version(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export const DEFAULT_BOUNDARIES = join(ROOT, 'data', 'boundaries.json');
export const DEFAULT_CELLS = join(ROOT, 'data', 'cells.csv');
export const DEFAULT_CITIES = join(ROOT, 'data', 'cities.json');

/**
 * The largest cells or cities file the CLI reads, in bytes (256 MiB): a cells
 * file listing every one of the 6,291,456 level-10 cells is about 190 MiB.
 */
export const MAX_DATA_FILE_BYTES = 256 * 1024 * 1024;


/** CliError carries a user-facing message and an exit code (2: usage, 1: bad input or failure). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** What a file system object is, in words, for messages ("a directory", "a character device"). */
function kindOf(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** reason turns a Node file system error into words (no stack, no syscall jargon). */
function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large for the file system or the process limit';
    case 'EROFS':
      return 'read-only file system';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EIO':
      return 'input/output error';
    default:
      return code ? `${code}: ${(e as Error).message.replace(/^\w+: /, '').replace(/, \w+ '.*'$/, '')}` : String((e as Error)?.message ?? e);
  }
}

/**
 * readText reads a UTF-8 file or throws a CliError naming the path. The file
 * must be a regular file of at most maxBytes bytes: its size is checked before
 * it is read, so an oversized input is refused at once.
 */
export function readText(path: string, what: string, maxBytes = MAX_BOUNDARY_FILE_BYTES): string {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw new CliError(`cannot read ${what} ${path}: ${reason(e)}`);
  }
  if (!st.isFile()) throw new CliError(`cannot read ${what} ${path}: it is ${kindOf(st)}, not a regular file`);
  if (st.size > maxBytes) {
    throw new CliError(`cannot read ${what} ${path}: it is ${st.size.toLocaleString('en-US')} bytes (${mib(st.size)}), over the limit of ${maxBytes.toLocaleString('en-US')} bytes (${mib(maxBytes)}) for a ${what}`);
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${what} ${path}: ${reason(e)}`);
  }
}

/**
 * problemLines lists a file's problems for people, one per line indented by
 * two spaces: the first MAX_LISTED_PROBLEMS, then "and N more" when `total`
 * (default: the list's length) is larger than what is listed.
 */
export function problemLines(errors: readonly { message: string }[], total = errors.length): string {
  const shown = errors.slice(0, MAX_LISTED_PROBLEMS).map((e) => `  ${e.message}\n`);
  if (total > shown.length) shown.push(`  and ${(total - shown.length).toLocaleString('en-US')} more\n`);
  return shown.join('');
}

/** problemCount writes "1 problem" or "N problems". */
export const problemCount = (n: number) => `${n.toLocaleString('en-US')} problem${n === 1 ? '' : 's'}`;

/**
 * naming runs fn, which reads or checks the file at path, and turns the
 * RangeErrors JavaScript throws on a pathological input (nesting too deep for
 * the stack, a string or array too long) into a CliError naming the file.
 */
export function naming<T>(path: string, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw new CliError(`${what} ${path} cannot be checked: it is nested too deeply (${e.message})`);
    if (e instanceof RangeError && /(string|array) length/i.test(e.message)) throw new CliError(`${what} ${path} cannot be checked: it is too large (${e.message})`);
    throw e;
  }
}

/** loadBoundaryFile reads and validates a boundary file; a BoundaryFileError lists every problem. */
export function loadBoundaryFile(path = DEFAULT_BOUNDARIES): BoundaryFile {
  const text = readText(path, 'boundary file', MAX_BOUNDARY_FILE_BYTES);
  return naming(path, 'boundary file', () => parseBoundaryFile(text, path));
}

/** loadRouter reads, validates and indexes a boundary file. */
export function loadRouter(path = DEFAULT_BOUNDARIES): Router {
  return new Router(loadBoundaryFile(path), path);
}

/**
 * loadCells reads a cells file in key order: token,restaurants,dishes (the
 * sample's) or token,docs[,<weight columns>] (`geoshard cells`); `weight`
 * names the column the cells weigh by (default docs, see parseCellsCsv).
 */
export function loadCells(path = DEFAULT_CELLS, weight?: string): CellWeight[] {
  return parseCellsCsv(readText(path, 'cells file', MAX_DATA_FILE_BYTES), path, { weight });
}

/**
 * loadIndexConfig returns the index description a command works on: the
 * config file at `path` (geoshard.config.json), or the bundled sample's
 * (SAMPLE_CONFIG, or `fallback`) when there is none, with the flags' overrides. Throws a
 * CliError listing every problem of the file (exit 1) or the flags (exit 1; with `command`,
 * a usage error, exit 2, naming the command).
 */
export function loadIndexConfig(path: string | undefined, overrides: IndexConfigOverrides = {}, fallback: IndexConfig = SAMPLE_CONFIG, command?: string): IndexConfig {
  let base: IndexConfig;
  try {
    base = path === undefined ? fallback : parseIndexConfig(readText(path, 'index config', MAX_BOUNDARY_FILE_BYTES), path);
  } catch (e) {
    if (e instanceof IndexConfigError) throw new CliError(command ? `geoshard ${command}: ${e.message}` : e.message, 1);
    throw e;
  }
  try {
    return withOverrides(base, overrides, path === undefined && fallback === SAMPLE_CONFIG);
  } catch (e) {
    // A bad flag is a usage error (exit 2) when the command is named, as every other bad option is.
    if (e instanceof IndexConfigError) throw command ? new CliError(`geoshard ${command}: ${e.problems.map((p) => p.message).join('\n  ')}\nRun "geoshard ${command} --help" for usage.`, 2) : new CliError(e.message, 1);
    throw e;
  }
}

/** The flags of every command that works on an index: its config and the keys they override (loadIndexConfig). */
export const INDEX_CONFIG_OPTIONS = { config: { type: 'string' }, index: { type: 'string' }, field: { type: 'string' } } as const;

/** The usage lines of INDEX_CONFIG_OPTIONS, for a command's --help. */
export const INDEX_CONFIG_USAGE = `  --config FILE  geoshard.config.json: index, location, weight, name, join, facets (default: the
                 bundled sample's: index dishes, location, join restaurant->dish); --index and
                 --field override its keys
  --index I      the config's index (or alias)
  --field F      the config's location field (a geo_point)`;

/**
 * indexConfigOf returns the config named by a command's INDEX_CONFIG_OPTIONS values (see
 * loadIndexConfig) and whether the user gave one (--config, --index or --field), so a command
 * can keep its own default index when none was given.
 */
export function indexConfigOf(values: { config?: unknown; index?: unknown; field?: unknown }, command: string, fallback?: IndexConfig): { config: IndexConfig; given: boolean } {
  const config = loadIndexConfig(values.config as string | undefined, { index: values.index as string | undefined, field: values.field as string | undefined }, fallback, command);
  return { config, given: values.config !== undefined || values.index !== undefined || values.field !== undefined };
}

/** The document shape a writer or checker knows: the location field and the join (null: a flat index). */
export type DocumentShape = Pick<IndexConfig, 'location' | 'join'>;

const joinText = (j: IndexConfig['join']) => (j === null ? 'null (a flat index)' : `{ field "${j.field}", parent "${j.parent}", child "${j.child}", childLocation "${j.childLocation}" }`);

/**
 * requireShape throws a CliError (exit 1) when `config` describes documents of another shape
 * than `shape` (the only one `what` reads or writes): it names the key, the config's value and
 * the valid one, and says why (`why`).
 */
export function requireShape(config: IndexConfig, shape: DocumentShape, command: string, why: string): void {
  const problems: string[] = [];
  if (config.location !== shape.location) problems.push(`location ${JSON.stringify(config.location)} is not valid here: expected ${JSON.stringify(shape.location)}`);
  if (JSON.stringify(config.join) !== JSON.stringify(shape.join)) problems.push(`join ${joinText(config.join)} is not valid here: expected ${joinText(shape.join)}`);
  if (problems.length > 0) throw new CliError(`geoshard ${command}: the index config ${problems.length === 1 ? 'key is' : 'keys are'} invalid for this command (${why}):\n  ${problems.join('\n  ')}`, 1);
}

/**
 * requireFileIndex throws a CliError (exit 1) when the config's index is not the one the boundary
 * file names (`file`, read from `path`): a command that works from a boundary file works on the
 * index it was made for (its hash is recorded in that index's _meta).
 */
export function requireFileIndex(config: IndexConfig, file: BoundaryFile, path: string, command: string): void {
  if (config.index === file.index) return;
  throw new CliError(
    `geoshard ${command}: index ${JSON.stringify(config.index)} (the config's, or --index) is not valid with ${path}: expected its index ${JSON.stringify(file.index)}, the index the boundary file was made for ` +
      `(a file for ${JSON.stringify(config.index)}: "geoshard balance --index ${config.index} --out FILE")`,
    1,
  );
}

/**
 * resolveTarget returns the file a write to `path` replaces: the path itself,
 * or the file a symbolic link points to (so the link stays a link), with the
 * target's current state (null when it does not exist yet). Throws a CliError
 * saying what is wrong when the target exists and is not a regular file, when
 * a part of the folder path is not a folder, or when the path names a folder.
 */
export function resolveTarget(path: string, what = 'file'): { target: string; existing: Stats | null } {
  if (path === '' || /[\\/]$/.test(path)) throw new CliError(`cannot write ${what} ${JSON.stringify(path)}: give a file name, not a folder`);
  let target = resolve(path);
  let link: Stats | null = null;
  try {
    link = lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw new CliError(`cannot write ${what} ${path}: ${reason(e)}`);
  }
  if (link?.isSymbolicLink()) {
    try {
      target = realpathSync(target);
    } catch (e) {
      throw new CliError(`cannot write ${what} ${path}: it is a symbolic link whose target cannot be resolved (${reason(e)})`);
    }
  }
  let existing: Stats | null = null;
  try {
    existing = statSync(target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new CliError(`cannot write ${what} ${path}: ${reason(e)}`);
  }
  if (existing && !existing.isFile()) {
    throw new CliError(`cannot write ${what} ${path}: it is ${kindOf(existing)}; the CLI writes only regular files (give the path of a new or existing regular file)`);
  }
  if (!existing) checkFolder(dirname(target), path, what);
  return { target, existing };
}

/**
 * checkFolder throws a CliError when `dir` cannot hold a new file: a part of
 * it exists and is not a folder. Missing folders are fine (they are created).
 */
function checkFolder(dir: string, path: string, what: string): void {
  for (let d = dir; ; d = dirname(d)) {
    let st: Stats | null = null;
    try {
      st = statSync(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new CliError(`cannot write ${what} ${path}: ${d}: ${reason(e)}`);
    }
    if (st) {
      if (!st.isDirectory()) throw new CliError(`cannot write ${what} ${path}: ${d} is ${kindOf(st)}, not a folder`);
      return;
    }
    if (dirname(d) === d) return;
  }
}

/**
 * checkFolderTarget throws a CliError unless `dir` is an existing folder or
 * can be created as one (no part of it is a file). For options naming an
 * output folder (plan --out-dir).
 */
export function checkFolderTarget(dir: string, what = 'folder'): void {
  checkFolder(resolve(dir), dir, what);
}

/**
 * writeFileAtomic writes text to path so that a reader sees the old file or
 * the whole new one, never a part: it writes a temporary file in the target's
 * folder, fsyncs it, renames it over the target and fsyncs the folder (best
 * effort). A symbolic link is written through to its target; an existing
 * file keeps its permission bits (and, when allowed, its owner). Missing
 * folders are created. Refuses a target that exists and is not a regular file
 * (a device, folder, pipe or socket). Any failure throws a CliError naming the
 * path and the reason, and removes the temporary file; the target is then
 * untouched.
 */
export function writeFileAtomic(path: string, text: string | Uint8Array, what = 'file'): void {
  const { target, existing } = resolveTarget(path, what);
  const dir = dirname(target);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new CliError(`cannot write ${what} ${path}: cannot create the folder ${dir}: ${reason(e)}`);
  }
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'wx', 0o666);
    if (existing) {
      fchmodSync(fd, existing.mode & 0o7777);
      if (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.()) {
        try {
          fchownSync(fd, existing.uid, existing.gid);
        } catch {
          // Only root may give a file away; otherwise the new file is the writer's, as after any editor's save.
        }
      }
    }
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, target);
  } catch (e) {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // The write already failed; that is the error to report.
      }
    }
    rmSync(tmp, { force: true });
    throw new CliError(`cannot write ${what} ${path}: ${reason(e)}; nothing was written`);
  }
  try {
    const d = openSync(dir, 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename is done either way.
  }
}

/**
 * refuseInvalid throws a CliError listing the problems (at most
 * MAX_LISTED_PROBLEMS) unless `file` is a valid boundary file: a command
 * calls it before writing, so it never writes a file `geoshard validate`
 * would reject.
 */
export function refuseInvalid(file: unknown, path: string, command: string): void {
  const { problems, total } = checkBoundaryFile(file);
  if (total > 0) {
    throw new CliError(`geoshard ${command}: not writing ${path}: the boundary file would be invalid (${problemCount(total)}):\n${problemLines(problems, total).trimEnd()}`);
  }
}

/**
 * writeBoundaryFile validates a boundary file, then writes it atomically in
 * the standard layout (formatBoundaryFile). Writes nothing when it is invalid.
 */
export function writeBoundaryFile(path: string, file: BoundaryFile, command: string): void {
  refuseInvalid(file, path, command);
  writeFileAtomic(path, formatBoundaryFile(file), 'boundary file');
}

export { BoundaryFileError };
