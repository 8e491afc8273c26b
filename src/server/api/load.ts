/**
 * What the live API routes and searches with: the boundary file (a Router, refused while it
 * holds moves in progress), its drift guard, and the index config, loaded from the options or
 * the environment (GEOSHARD_BOUNDARIES, GEOSHARD_CONFIG). A failed load is kept as its reason
 * (LiveApi tries again on the next request), so the API still answers and says why.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Router, parseBoundaryFile, type BoundaryFile } from '../../core/index.ts';
import { DriftGuard } from '../driftGuard.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { SAMPLE_CONFIG, parseIndexConfig, type IndexConfig } from '../../opensearch/indexConfig.ts';
import { routingKeyOf } from '../wire.ts';
import { DEFAULT_BOUNDARIES_PATH, publicName, redactPath } from '../projectFiles.ts';
import type { ApiResult } from './http.ts';
import { env } from '../../cluster/env.ts';

/** Where the boundary file and the index config come from (a subset of ApiOptions). */
export interface LoadOptions {
  /** Boundary file path (default $GEOSHARD_BOUNDARIES or data/boundaries.json); ignored when `file` is given. */
  boundariesPath?: string;
  /** An already loaded boundary file. */
  file?: BoundaryFile;
  /** The index config path (geoshard.config.json; default $GEOSHARD_CONFIG, else the sample's config for the file's index); ignored when `config` is given. */
  configPath?: string;
  /** An already loaded index config; its index must be the boundary file's. */
  config?: IndexConfig;
  /** How long a drift check may be reused (ms, default 0: every search checks). */
  driftTtlMs?: number;
}

/** The server's routing state: a router, its drift guard and the index config, or why there is none. */
export type Loaded = { router: Router; guard: DriftGuard; path: string; config: IndexConfig } | { error: string; path: string };

/** loadRouting loads the boundary file and the index config; a failure is returned as its message, never thrown. */
export function loadRouting(opts: LoadOptions, client: OpenSearchClient): Loaded {
  const path = opts.file ? '(given)' : resolve(opts.boundariesPath ?? (env('GEOSHARD_BOUNDARIES') || DEFAULT_BOUNDARIES_PATH));
  try {
    const file = opts.file ?? parseBoundaryFile(readFileSync(path, 'utf8'), path);
    const router = new Router(file, path);
    if (router.moves.length > 0) {
      // Searching mid-migration needs read exclusions (a copy of each moving range lives on two shards); not supported here.
      throw new Error(`boundary file ${path} has ${router.moves.length} move(s) in progress (its "migration" field): the live API searches only settled boundary files`);
    }
    let config: IndexConfig;
    try {
      config = loadConfig(opts, file, path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new Error(code ? `index config ${publicName(resolve(opts.configPath ?? env('GEOSHARD_CONFIG') ?? ''))} cannot be read (${code}): fix GEOSHARD_CONFIG` : (e as Error).message);
    }
    return { router, guard: new DriftGuard(client, file, opts.driftTtlMs ?? 0), path, config };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? `boundary file ${path} does not exist: run "npm run data:generate", or set GEOSHARD_BOUNDARIES` : (e as Error).message, path };
  }
}

/**
 * loadConfig returns the index config the API searches with: `config`, the file at `configPath`
 * or $GEOSHARD_CONFIG, or (neither) the sample's config for the boundary file's index. Throws
 * Error (IndexConfigError) naming the file when it is invalid or names another index than the
 * boundary file: the API routes by the file, so it searches the index the file was made for.
 */
function loadConfig(opts: LoadOptions, file: BoundaryFile, boundariesPath: string): IndexConfig {
  const path = opts.config ? null : opts.configPath ?? (env('GEOSHARD_CONFIG') || null);
  if (!opts.config && path === null) return { ...SAMPLE_CONFIG, index: file.index, facets: [...SAMPLE_CONFIG.facets] };
  const config = opts.config ?? parseIndexConfig(readFileSync(resolve(path!), 'utf8'), publicName(resolve(path!)));
  if (config.index !== file.index) {
    throw new Error(`index config ${path === null ? '(given)' : publicName(resolve(path))}: index ${JSON.stringify(config.index)} is not valid with boundary file ${publicName(boundariesPath)}: expected its index ${JSON.stringify(file.index)} (the API searches the index its boundary file was made for; make one for ${JSON.stringify(config.index)} with "geoshard balance --index ${config.index}")`);
  }
  return config;
}

/** unusable is the 500 of a request while the boundary file or the config cannot be used (the path redacted). */
export function unusable(l: { error: string; path: string }): ApiResult {
  return { httpStatus: 500, body: { status: 'error', error: { message: redactPath(l.error, l.path) } } };
}

/** boundaryHead is the part of every answer that names the index and the boundary file. */
export function boundaryHead(file: BoundaryFile): { index: string; boundary: { hash: string; version: number; numberOfShards: number } } {
  return { index: file.index, boundary: { hash: file.hash, version: file.version, numberOfShards: file.numberOfShards } };
}

/** boundaryInfo is /api/status's `boundary`: the file's public name, identity, shards and routing key. */
export function boundaryInfo(file: BoundaryFile, path: string) {
  return { file: publicName(path), index: file.index, hash: file.hash, version: file.version, numberOfShards: file.numberOfShards, shards: file.shards.map((s, index) => ({ index, name: s.name, shard: s.shard })), routing: routingKeyOf(file) };
}
