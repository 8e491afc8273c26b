#!/usr/bin/env node
// `node scripts/imports.mjs [--json]`: the import graph of src/, and what breaks its two rules
// (scripts/imports.test.ts holds them, in `npm test`'s unit project):
//   1. No circle. Value imports (`import {x}`, `export … from`, dynamic `import()`) never form
//      one; type-only imports (`import type`, or every name marked `type`) do not either, except
//      that compose the explorer's store type from its slices (zustand's slices pattern: a slice
//      imports the whole store's type, src/app/shell/types.ts or store.ts, which the store
//      builds from every slice). Every other type-only import counts.
//   2. No arrow back up. The layers, lowest first: src/core (pure TS) < src/opensearch
//      (`geoshard/opensearch`) and src/data (the synthetic dataset, the optional peers' loader) <
//      src/server < src/cli. A file imports its own layer and lower ones only. src/app (the
//      explorer) stands apart: it imports src/core and the server's shared contract (SHARED:
//      the wire format and the latency statistics, which hold no Node code), and nothing imports
//      it. Tests (*.test.ts) are exempt from rule 2: they may drive a layer from above.
// The graph is read with TypeScript's parser, so comments and strings never count as imports.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/**
 * The rooms, lowest first. A production file may import its own room and the rooms listed
 * before it in ORDER, except the explorer (src/app), which stands apart and imports the core and
 * SHARED only, and the test helpers (src/testing), which production code never imports.
 *   core            the routing core (pure TypeScript)
 *   opensearch      the package's `geoshard/opensearch`: what a library user needs beside the core
 *   data            the synthetic dataset, the sample's documents, the optional peers' loader
 *   cluster         the connection: client, TLS, privileges, the environment
 *   ops/routing     the routing pipeline on the cluster and the checks that the engine routes as the file says
 *   ops/compare     two large document streams compared with bounded memory
 *   ops/cells       the density of an index
 *   ops/seed        the samples and how they are loaded
 *   ops/migrate     moving a range on a live index (its cutover and lock)
 *   ops/audit       finding misplaced documents
 *   ops/reindex     adopting an index behind an alias, phase by phase
 *   ops/traffic     the engine's per-shard traffic: sampled, kept in the cluster's history index, read back
 *   server          the HTTP server: the live API, its wire contract, the explorer's static files
 *   cli             the `geoshard` command line
 *   docs            the docs' generator and checks (above the CLI, whose commands they describe)
 */
export const ORDER = ['core', 'opensearch', 'data', 'cluster', 'ops/routing', 'ops/compare', 'ops/cells', 'ops/seed', 'ops/migrate', 'ops/audit', 'ops/reindex', 'ops/traffic', 'server', 'cli', 'docs'];

/** What each room may import besides itself: the rooms below it. */
export const LOWER = {
  ...Object.fromEntries(ORDER.map((room, i) => [room, ORDER.slice(0, i)])),
  app: ['core'],
  // Test helpers: used by tests only, so they may drive any room (never the explorer).
  testing: ORDER,
};

/** The files of higher rooms the explorer may import (browser-safe: no Node modules, no client). */
export const SHARED = [/^src\/server\/wire(\.ts|\/)/, /^src\/server\/measureStats\.ts$/, /^src\/cluster\/redact\.ts$/];

/** The store's type modules: a type-only import of one may close a circle (the slices pattern). */
export const STORE_TYPES = ['src/app/shell/types.ts', 'src/app/shell/store.ts'];

/** walk lists the TypeScript and JavaScript sources under `dir`, relative to the root, `/`-separated. */
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(tsx?|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(ROOT, p).split(sep).join('/'));
  }
  return out;
}

/** layerOf names a file's room: the folder under src/ (`core`, `server`, …), and under src/ops the one below it (`ops/migrate`). */
export const layerOf = (file) => {
  const [, top, sub] = file.split('/');
  return top === 'ops' ? `ops/${sub}` : top;
};

/** isTest says whether a file is a test or a test's helper (*.testing.ts) (exempt from the layer rule, never from the circle rule). */
export const isTest = (file) => /\.(test|testing)\.tsx?$/.test(file);

/** resolveSpec resolves a relative specifier from `from` to a file of `files`, or null (a package). */
function resolveSpec(files, from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = relative(ROOT, resolve(ROOT, dirname(from), spec)).split(sep).join('/');
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) if (files.has(c)) return c;
  return null;
}

/**
 * graph reads every import of src/: a list of { from, to, spec, type } where `type` is true for a
 * type-only import (`import type`, `export type … from`, or an import whose every name is `type`).
 */
export function graph() {
  const list = walk(SRC);
  const files = new Set(list);
  const edges = [];
  for (const from of list) {
    const sf = ts.createSourceFile(from, readFileSync(join(ROOT, from), 'utf8'), ts.ScriptTarget.Latest, false);
    const add = (spec, type) => {
      const to = resolveSpec(files, from, spec);
      if (to) edges.push({ from, to, spec, type });
    };
    const visit = (n) => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
        let type = false;
        if (ts.isImportDeclaration(n)) {
          const c = n.importClause;
          const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
          type = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
        } else {
          type = n.isTypeOnly || (!!n.exportClause && ts.isNamedExports(n.exportClause) && n.exportClause.elements.length > 0 && n.exportClause.elements.every((e) => e.isTypeOnly));
        }
        add(n.moduleSpecifier.text, type);
      } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
        add(n.arguments[0].text, false);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { files: list, edges };
}

/**
 * The same pattern, pending a move: the link codec (src/app/shell/linkCodec.ts) loops over the feature
 * list, and each feature's codec (searchUrl, liveUrl, reviewUrl, tourUrl) and the list itself
 * import its FeatureUrl type. When that type moves into the store's types (the explorer's side
 * of issue 31), drop this entry: the test then counts those imports again.
 */
export const PENDING_TYPE_MODULES = ['src/app/shell/linkCodec.ts'];

/** counts says whether an edge counts for the circle rule. */
export const counts = (e) => !e.type || (!STORE_TYPES.includes(e.to) && !PENDING_TYPE_MODULES.includes(e.to));

/**
 * circles returns one circle per strongly connected group of files (Tarjan), as the path of
 * imports that closes it: [{ from, to, spec, type }, …] with the last `to` the first `from`.
 * `keep` chooses the edges that count.
 */
export function circles({ files, edges }, keep = counts) {
  const adj = new Map(files.map((f) => [f, []]));
  for (const e of edges) if (keep(e)) adj.get(e.from).push(e);
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const connect = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { to: w } of adj.get(v)) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = new Set();
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.add(w);
      } while (w !== v);
      if (group.size > 1 || adj.get(v).some((e) => e.to === v)) groups.push(group);
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  // One path per group: a breadth-first walk inside it from its first file back to that file.
  return groups.map((group) => {
    const start = [...group].sort()[0];
    const via = new Map();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift();
      for (const e of adj.get(v)) {
        if (!group.has(e.to) || via.has(e.to)) continue;
        via.set(e.to, e);
        if (e.to === start) queue.length = 0;
        else queue.push(e.to);
        if (e.to === start) break;
      }
    }
    const path = [];
    for (let at = start; ; ) {
      const e = via.get(at);
      path.unshift(e);
      at = e.from;
      if (at === start) break;
    }
    return path;
  });
}

/** backArrows lists the imports of non-test files into a layer above their own (LOWER, SHARED). */
export function backArrows({ edges }) {
  return edges.filter((e) => {
    if (isTest(e.from)) return false;
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (a === b) return false;
    if (a === 'app' && SHARED.some((r) => r.test(e.to))) return false;
    return !(LOWER[a] ?? []).includes(b);
  });
}

/**
 * Files outside src/testing that only tests import, and why each is not a test helper in
 * production source: the package's entry points (tests import them as a user would), a script
 * run by hand, and the core's own test helpers, which stay in src/core so that the core's tests
 * import nothing but the core (src/core/tsconfig.json leaves them out of the core's build).
 */
export const NOT_HELPERS = new Map([
  ['src/core/ops.ts', 'the `geoshard/ops` entry'],
  ['src/opensearch/index.ts', 'the `geoshard/opensearch` entry'],
  ['src/data/generate.ts', 'npm run data:generate'],
  ['src/core/testutil.ts', "the core's test helper"],
  ['src/core/reference/regionCoverer.ts', "the core's reference covering for its tests"],
  ['src/core/shapeRoute.ts', "the core's routing of boxes and polygons: the reference the plugin's Java is generated and tested against (scripts/plugin-fixtures.ts)"],
]);

/**
 * testHelpersOutside lists the files outside src/testing that only tests (and test helpers)
 * import: test helpers in production source (NOT_HELPERS says which are not). A file nothing
 * imports is an entry point (a command, a worker, a child process), not a helper.
 */
export function testHelpersOutside({ files, edges }) {
  const importers = new Map(files.map((f) => [f, []]));
  for (const e of edges) importers.get(e.to)?.push(e.from);
  const testOnly = (f) => isTest(f) || layerOf(f) === 'testing';
  return files.filter((f) => !testOnly(f) && !NOT_HELPERS.has(f) && layerOf(f) !== 'app' && importers.get(f).length > 0 && importers.get(f).every(testOnly)).sort();
}

/** describeCircle writes a circle as "a.ts → b.ts → a.ts" with each type-only step marked. */
export const describeCircle = (path) => [path[0].from, ...path.map((e) => `${e.type ? '(type) ' : ''}${e.to}`)].join(' → ');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const g = graph();
  const found = { circles: circles(g).map(describeCircle), backArrows: backArrows(g).map((e) => `${e.from} → ${e.to}`) };
  if (process.argv.includes('--json')) console.log(JSON.stringify(found, null, 2));
  else {
    const between = {};
    for (const e of g.edges) if (layerOf(e.from) !== layerOf(e.to)) between[`${layerOf(e.from)} → ${layerOf(e.to)}`] = (between[`${layerOf(e.from)} → ${layerOf(e.to)}`] ?? 0) + 1;
    console.log(`${g.files.length} files, ${g.edges.length} imports; between layers (tests included):`);
    for (const [k, n] of Object.entries(between).sort()) console.log(`  ${k}: ${n}`);
    console.log(`circles: ${found.circles.length}`);
    for (const c of found.circles) console.log(`  ${c}`);
    console.log(`arrows back up: ${found.backArrows.length}`);
    for (const b of found.backArrows) console.log(`  ${b}`);
  }
}
