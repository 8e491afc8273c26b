/**
 * Where the project's own files are, and how the API names a file without revealing the
 * server's disk. Computed from this module's URL, two folders below the root: that holds for
 * src/server/*.ts and for the CLI bundle's chunks in dist/cli/, so keep this file at this depth.
 */
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder (absolute path). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The repository's bundled boundary file (absolute path). */
export const DEFAULT_BOUNDARIES_PATH = resolve(PROJECT_ROOT, 'data', 'boundaries.json');

/**
 * publicName names a boundary file for API answers without revealing the
 * server's disk: its path relative to the project ("data/boundaries.json"),
 * or only its file name when it lies outside the project.
 */
export function publicName(path: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/');
  const rel = relative(PROJECT_ROOT, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : basename(path);
}

/** redactPath replaces a boundary file's absolute path in a message with its public name. */
export function redactPath(message: string, path: string): string {
  return isAbsolute(path) ? message.split(path).join(publicName(path)) : message;
}
