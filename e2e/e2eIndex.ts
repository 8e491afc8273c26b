/**
 * The index the live browser tests own: the bundled data/boundaries.json
 * under another index name (same boundaries and shard names, so the same
 * routing and the same routing strings the explorer shows; another hash).
 * The explorer's server routes with this file (GEOSHARD_BOUNDARIES, set by
 * playwright.config.ts), so a user's own `dishes` index — seeded, migrated or
 * written to by hand — is never read, written or refused by the tests, and
 * whatever state a run leaves in this index is the tests' own to recreate.
 *
 * Node only, no Playwright: the config imports it before any test runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatBoundaryFile, parseBoundaryFile, withHash, type BoundaryFile } from '../src/core/index.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The tests' own index (no user index is called this). */
export const E2E_INDEX = 'geoshard-e2e-dishes';
/** Where the tests' boundary file is written (test-results/ is the test run's own folder). */
export const E2E_BOUNDARIES = join(ROOT, 'test-results', 'e2e-boundaries.json');

/** e2eFile returns the bundled file for the tests' index. */
export function e2eFile(): BoundaryFile {
  const bundled = parseBoundaryFile(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8'));
  const { hash: _h, ...rest } = bundled;
  return withHash({ ...rest, index: E2E_INDEX });
}

/** writeE2eBoundaries writes the tests' boundary file (atomically enough for a file only the tests read) and returns its path. */
export function writeE2eBoundaries(): string {
  mkdirSync(dirname(E2E_BOUNDARIES), { recursive: true });
  writeFileSync(E2E_BOUNDARIES, formatBoundaryFile(e2eFile()));
  return E2E_BOUNDARIES;
}
