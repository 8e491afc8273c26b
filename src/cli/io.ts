/** File helpers shared by the CLI commands: reading inputs with clear errors, atomic writes. */
import { readFileSync, writeFileSync, renameSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBoundaryFile, parseCellsCsv, Router, BoundaryFileError, type BoundaryFile, type CellWeight } from '../core/index.ts';

/** The repository root (two levels above this file). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Default inputs, relative to the repository root. */
export const DEFAULT_BOUNDARIES = join(ROOT, 'data', 'boundaries.json');
export const DEFAULT_CELLS = join(ROOT, 'data', 'cells.csv');
export const DEFAULT_CITIES = join(ROOT, 'data', 'cities.json');

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

/** readText reads a UTF-8 file or throws a CliError naming the path. */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** loadBoundaryFile reads and validates a boundary file; a BoundaryFileError lists every problem. */
export function loadBoundaryFile(path = DEFAULT_BOUNDARIES): BoundaryFile {
  return parseBoundaryFile(readText(path, 'boundary file'), path);
}

/** loadRouter reads, validates and indexes a boundary file. */
export function loadRouter(path = DEFAULT_BOUNDARIES): Router {
  return new Router(loadBoundaryFile(path), path);
}

/** loadCells reads a cells file (token,restaurants,dishes in key order). */
export function loadCells(path = DEFAULT_CELLS): CellWeight[] {
  return parseCellsCsv(readText(path, 'cells file'), path);
}

/**
 * writeFileAtomic writes text to path via a temporary file in the same folder
 * and a rename, so a reader never sees a half-written file and a failure
 * leaves the old file untouched.
 */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new CliError(`cannot write ${path}: ${(e as Error).message}`);
  }
}

export { BoundaryFileError };
