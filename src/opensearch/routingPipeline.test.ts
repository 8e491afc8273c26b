import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { cellFromOrdinal, cellOrdinal, cellToken, parseBoundaryFile, parseToken, withHash, type PlanMove } from '../core/index.ts';
import { advance, intermediateFile, startState, type MigrationState } from '../core/migrationState.ts';
import { sha256 } from '../core/sha256.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { routingPipeline, routingTable, tableDigest, expectedIdentity, identityOf, comparePipeline, pipelineId, ROUTING_SCRIPT, SCRIPT_TAG } from './routingPipeline.ts';
import { Router } from '../core/index.ts';
import { pipelineStatusOf, type InstalledPipeline } from '../ops/routing/pipelineInstall.ts';
import { indexMeta } from './indexSpec.ts';
import { withState } from '../ops/migrate/migration.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const NOW = '2026-12-01T00:00:00.000Z';
const base = fileWithCuts([1000, 2000], 'gs-pipe-unit');
const names = base.shards.map((s) => s.name);
const { hash: _h, ...rest } = base;
const candidate = withHash({ ...rest, version: 2, parent: base.hash, boundaries: [tok(1000), tok(1500)] });
const move: PlanMove = { n: 1, from: names[1], to: names[2], start: tok(1500), end: tok(2000), startOrdinal: 1500, endOrdinal: 2000, fromShard: 1, toShard: 2, candidateTo: names[2], cells: 500, restaurants: 0, dishes: 0, share: 0 };
const verifiedCounts = { verified: { from: { restaurants: 1, dishes: 1 }, to: { restaurants: 1, dishes: 1 } } };
/** The state after publishing each step up to `to`, in order. */
function stateAt(to: 'dual-write' | 'copying' | 'verified' | 'switched' | 'deleting'): MigrationState {
  let s = startState(base, candidate, [move], NOW);
  for (const step of ['dual-write', 'copying', 'verified', 'switched', 'deleting'] as const) {
    s = advance(s, 0, step, NOW, step === 'verified' ? verifiedCounts : {});
    if (step === to) return s;
  }
  return s;
}

describe('routing table and params', () => {
  it('gives each range of a settled file its one owner, starting at the file boundaries', () => {
    expect(routingTable(new Router(base))).toEqual({ starts: [0, 1000, 2000], read: names, write: names.map((n) => [n]) });
    const p = routingPipeline(base);
    const script = p.processors[0].script;
    expect(script.lang).toBe('painless');
    expect(script.tag).toBe(SCRIPT_TAG);
    expect(script.params.pipeline).toBe('geoshard-gs-pipe-unit');
    expect(script.params.starts).toEqual([0, 1000, 2000]);
    expect(script.params.identity).toEqual({ hash: base.hash, epoch: 0, table: sha256(JSON.stringify({ starts: [0, 1000, 2000], read: names, write: names.map((n) => [n]) })) });
  });

  it('takes the bundled file: starts are its boundaries as level-10 ordinals, names in key order', () => {
    const path = new URL('../../data/boundaries.json', import.meta.url);
    const file = parseBoundaryFile(readFileSync(path, 'utf8'), path.pathname);
    const t = routingTable(new Router(file));
    // Independently: a boundary token's ordinal is its cell id's top bits (the 64-bit id >> 41).
    expect(t.starts).toEqual([0, ...file.boundaries.map((b) => Number(BigInt(`0x${b.padEnd(16, '0')}`) >> 41n))]);
    expect(t.read).toEqual(file.shards.map((s) => s.name));
    expect(pipelineId(file.index)).toBe(`geoshard-${file.index}`);
  });

  it('reads a moving range from its old owner and writes it to both until the switch, then reads the new owner', () => {
    const dual = routingTable(new Router(routingFile(stateAt('dual-write'))));
    expect(dual).toEqual({ starts: [0, 1000, 1500, 2000], read: [names[0], names[1], names[1], names[2]], write: [[names[0]], [names[1]], [names[1], names[2]], [names[2]]] });
    const switched = routingTable(new Router(routingFile(stateAt('switched'))));
    expect(switched).toEqual({ starts: [0, 1000, 1500, 2000], read: [names[0], names[1], names[2], names[2]], write: [[names[0]], [names[1]], [names[1], names[2]], [names[2]]] });
    // Done (the delete): the range is the new owner's alone, and merges with its neighbour.
    const done = routingTable(new Router(routingFile(stateAt('deleting'))));
    expect(done).toEqual({ starts: [0, 1000, 1500], read: names, write: names.map((n) => [n]) });
  });

  it('makes the pipeline from the state: identity is the settled hash and the epoch', () => {
    const s = stateAt('copying');
    const id = routingPipeline(base, s).processors[0].script.params.identity;
    expect(id.hash).toBe(base.hash);
    expect(id.epoch).toBe(s.epoch);
    expect(id).toEqual(expectedIdentity(base, s));
    expect(routingPipeline(base, s).processors[0].script.params.write[2]).toEqual([names[1], names[2]]);
  });

  it('runs one constant script for every file and state (everything that varies is in params)', () => {
    expect(routingPipeline(base).processors[0].script.source).toBe(ROUTING_SCRIPT);
    expect(routingPipeline(candidate, null).processors[0].script.source).toBe(ROUTING_SCRIPT);
    expect(ROUTING_SCRIPT).toContain('StrictMath.cos');
    expect(ROUTING_SCRIPT).not.toMatch(/[^t]Math\.(sin|cos|atan)/);
  });

  it('reads the identity back from a pipeline body and nothing from a foreign one', () => {
    const p = JSON.parse(JSON.stringify(routingPipeline(base, stateAt('dual-write'))));
    expect(identityOf(p)).toEqual(expectedIdentity(base, stateAt('dual-write')));
    expect(identityOf({ processors: [{ set: { field: 'x', value: 1 } }] })).toBeNull();
    expect(identityOf(null)).toBeNull();
  });
});

describe('pipeline drift', () => {
  const settled = expectedIdentity(base, null);

  it('matches when only the epoch differs and the table is the same', () => {
    // dual-write and copying route alike: publishing copying (a new epoch) before the pipeline follows is no drift.
    const a = expectedIdentity(base, stateAt('dual-write'));
    const b = expectedIdentity(base, stateAt('copying'));
    expect(a.epoch).not.toBe(b.epoch);
    expect(comparePipeline('i', a, b)).toEqual({ matches: true, message: '' });
  });

  it('refuses another settled hash, naming both and the command to run', () => {
    const other = expectedIdentity(candidate, null);
    const c = comparePipeline('gs-pipe-unit', other, settled);
    expect(c.matches).toBe(false);
    expect(c.message).toContain(candidate.hash);
    expect(c.message).toContain(base.hash);
    expect(c.message).toContain('npx geoshard pipeline --install');
  });

  it('refuses a table other than the one the migration state implies', () => {
    const c = comparePipeline('gs-pipe-unit', settled, expectedIdentity(base, stateAt('dual-write')));
    expect(c.matches).toBe(false);
    expect(c.message).toContain('npx geoshard pipeline --install');
  });

  const installed = (identity: InstalledPipeline['identity'], defaultPipeline: string | null = 'geoshard-gs-pipe-unit'): InstalledPipeline => ({ id: 'geoshard-gs-pipe-unit', defaultPipeline, identity, exists: identity !== null, processor: identity ? 'painless' : null, pinned: null });

  it("reports the plugin's geo_routing as routing as _meta says, unless it is pinned to another file", () => {
    const plugin = (pinned: string | null): InstalledPipeline => ({ id: 'geoshard-gs-pipe-unit', defaultPipeline: 'geoshard-gs-pipe-unit', identity: null, exists: true, processor: 'plugin', pinned });
    expect(pipelineStatusOf(plugin(null), indexMeta(base), 'gs-pipe-unit')).toMatchObject({ matches: true, hash: base.hash });
    expect(pipelineStatusOf(plugin(base.hash), indexMeta(base), 'gs-pipe-unit')).toMatchObject({ matches: true });
    const other = pipelineStatusOf(plugin('f'.repeat(64)), indexMeta(base), 'gs-pipe-unit')!;
    expect(other.matches).toBe(false);
    expect(other.message).toContain('every write is refused');
    expect(pipelineStatusOf(plugin(null), null, 'gs-pipe-unit')!.matches).toBe(false);
  });

  it('reports no pipeline when the index does not use geoshard\'s as its default', () => {
    expect(pipelineStatusOf(installed(settled, null), indexMeta(base), 'gs-pipe-unit')).toBeNull();
    expect(pipelineStatusOf(installed(settled, 'someone-elses'), indexMeta(base), 'gs-pipe-unit')).toBeNull();
    expect(pipelineStatusOf(installed(null), indexMeta(base), 'gs-pipe-unit')).toBeNull();
    expect(pipelineStatusOf(undefined, indexMeta(base), 'gs-pipe-unit')).toBeNull();
  });

  it('compares with _meta: its file and its migration state', () => {
    expect(pipelineStatusOf(installed(settled), indexMeta(base), 'gs-pipe-unit')).toMatchObject({ id: 'geoshard-gs-pipe-unit', hash: base.hash, epoch: 0, matches: true, message: '' });
    const migrating = withState(indexMeta(base), stateAt('dual-write'));
    const stale = pipelineStatusOf(installed(settled), migrating, 'gs-pipe-unit');
    expect(stale?.matches).toBe(false);
    expect(stale?.message).toContain('pipeline --install');
    expect(pipelineStatusOf(installed(expectedIdentity(base, stateAt('dual-write'))), withState(indexMeta(base), stateAt('copying')), 'gs-pipe-unit')?.matches).toBe(true);
  });

  it('starts of a known file equal the ordinals the core gives its boundary tokens', () => {
    expect(routingTable(new Router(candidate)).starts).toEqual([0, ...candidate.boundaries.map((b) => cellOrdinal(parseToken(b)))]);
  });
});

/** The file documents are routed with in a state: the intermediate file (migrationState.ts). */
function routingFile(state: MigrationState) {
  return intermediateFile(base, state);
}
