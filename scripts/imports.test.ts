/**
 * The house's import rules, over every file of src/ (scripts/imports.mjs reads the graph and says
 * why each rule is what it is):
 *   - no import circle (value imports never; type-only ones only to compose the store's type);
 *   - rooms in order (ORDER): a production file imports its own room and the rooms below it;
 *     the explorer (src/app) apart, importing the core and the shared wire contract only; tests
 *     exempt;
 *   - test helpers live in src/testing, and no production file imports them.
 * A failure names each circle as its path of imports, and each arrow back up as from → to.
 */
import { describe, it, expect } from 'vitest';
import { graph, circles, backArrows, describeCircle, testHelpersOutside, LOWER, ORDER, STORE_TYPES, layerOf } from './imports.mjs';

const g = graph();

describe('the import graph of src/', () => {
  it('is read with type-only imports told apart from value imports', () => {
    const edge = (from: string, to: string) => g.edges.find((e) => e.from === from && e.to === to);
    // src/ops/reindex/state.ts imports the client's type only; reindex.ts imports state.ts's values.
    expect(edge('src/ops/reindex/state.ts', 'src/cluster/client.ts')?.type).toBe(true);
    expect(edge('src/ops/reindex/reindex.ts', 'src/ops/reindex/state.ts')?.type).toBe(false);
    // A dynamic import() counts as a value import (the CLI's lazy command table).
    expect(g.edges.some((e) => e.from === 'src/cli/main.ts' && e.to.startsWith('src/cli/commands/') && !e.type)).toBe(true);
    expect(g.files.length).toBeGreaterThan(300);
  });

  it('has no import circle', () => {
    expect(circles(g).map(describeCircle)).toEqual([]);
  });

  it('has no import from a lower room into a higher one', () => {
    expect(backArrows(g).map((e) => `${e.from} → ${e.to} (${e.spec})`)).toEqual([]);
  });

  it('keeps every test helper in src/testing, imported by no production file', () => {
    expect(testHelpersOutside(g)).toEqual([]);
    const intoTesting = g.edges.filter((e) => layerOf(e.to) === 'testing' && !/\.(test|testing)\.tsx?$/.test(e.from) && layerOf(e.from) !== 'testing');
    expect(intoTesting.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('puts every file of src/ in a room', () => {
    expect(g.files.filter((f) => !(layerOf(f) in LOWER)).sort()).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const e = (from: string, to: string, type = false) => ({ from, to, spec: to, type });

  it('report a circle as the path that closes it', () => {
    const files = ['src/server/a.ts', 'src/server/b.ts', 'src/server/c.ts', 'src/server/d.ts'];
    const found = circles({ files, edges: [e(files[0], files[1]), e(files[1], files[2]), e(files[2], files[0]), e(files[2], files[3])] });
    expect(found.map(describeCircle)).toEqual(['src/server/a.ts → src/server/b.ts → src/server/c.ts → src/server/a.ts']);
  });

  it('count a type-only circle, unless it goes through the store type', () => {
    const files = ['src/cli/x.ts', 'src/cli/y.ts', 'src/app/shell/store.ts', 'src/app/live/liveSlice.ts'];
    const typeCircle = circles({ files, edges: [e(files[0], files[1]), e(files[1], files[0], true)] });
    expect(typeCircle.map(describeCircle)).toEqual(['src/cli/x.ts → src/cli/y.ts → (type) src/cli/x.ts']);
    expect(STORE_TYPES).toContain('src/app/shell/store.ts');
    const slices = circles({ files, edges: [e(files[2], files[3]), e(files[3], files[2], true)] });
    expect(slices).toEqual([]);
    const valueIntoStore = circles({ files, edges: [e(files[2], files[3]), e(files[3], files[2])] });
    expect(valueIntoStore).toHaveLength(1);
  });

  it('find an arrow back up, type-only or not, and let tests and the shared wire contract through', () => {
    const edges = [
      e('src/data/places.ts', 'src/server/optionalPeer.ts'),
      e('src/core/plan.ts', 'src/opensearch/meta.ts', true),
      e('src/app/write/writeSlice.ts', 'src/server/wire.ts', true),
      e('src/app/x.ts', 'src/cluster/client.ts'),
      e('src/opensearch/indexer.test.ts', 'src/testing/testkit.ts'),
      e('src/server/api.ts', 'src/app/shell/store.ts', true),
    ];
    expect(backArrows({ edges }).map((x) => `${x.from} → ${x.to}`)).toEqual([
      'src/data/places.ts → src/server/optionalPeer.ts',
      'src/core/plan.ts → src/opensearch/meta.ts',
      'src/app/x.ts → src/cluster/client.ts',
      'src/server/api.ts → src/app/shell/store.ts',
    ]);
    // Every folder under src/ is a room (src/docs: the docs' generator and checks, above the CLI).
    expect(Object.keys(LOWER).sort()).toEqual(['app', ...ORDER, 'testing'].sort());
  });

  it('fail on the old layout: the connection importing the wire contract, the compare room reading reindex files, a production file importing a test helper', () => {
    const edges = [
      // Before the rooms: the client took redactUrl from the wire contract, the tile reader its shard reader from reindex/.
      e('src/cluster/client.ts', 'src/server/wire.ts'),
      e('src/ops/compare/tileParts.ts', 'src/ops/reindex/shards.ts'),
      e('src/ops/migrate/migrationRouting.ts', 'src/server/wire.ts', true),
      e('src/server/api.ts', 'src/testing/testkit.ts'),
      // Allowed: a room imports a lower one; a test helper drives any room.
      e('src/ops/reindex/reindex.ts', 'src/ops/migrate/migration.ts'),
      e('src/testing/testkit.ts', 'src/server/api.ts'),
    ];
    expect(backArrows({ edges }).map((x) => `${x.from} → ${x.to}`)).toEqual([
      'src/cluster/client.ts → src/server/wire.ts',
      'src/ops/compare/tileParts.ts → src/ops/reindex/shards.ts',
      'src/ops/migrate/migrationRouting.ts → src/server/wire.ts',
      'src/server/api.ts → src/testing/testkit.ts',
    ]);
    // The old layout kept test helpers beside production files (the test kit in the server's folder), imported by tests only.
    const files = ['src/server/testkit.ts', 'src/server/api.ts', 'src/server/api.live.test.ts'];
    const old = { files, edges: [e('src/server/api.live.test.ts', 'src/server/testkit.ts'), e('src/server/testkit.ts', 'src/server/api.ts')] };
    expect(testHelpersOutside(old)).toEqual(['src/server/testkit.ts']);
  });
});
