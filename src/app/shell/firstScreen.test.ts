/**
 * The first screen's JavaScript, from a real production build of the explorer (bytes, not
 * time; bench/globe.perf.ts measures what the page actually fetches, and when). The build's
 * manifest gives the entry chunk and every chunk it imports statically: what the page loads
 * before it can draw. Lazy panels and workers are not in that set.
 *
 * Where the markers come from: three.js sets `isMeshStandardMaterial = true` only in that
 * class's constructor (three.core.js), so the flag's assignment is in a bundle exactly when the
 * class is; s2js's Loop has a `compareBoundary` method (s2js.esm.js), which the explorer never
 * calls, and a minifier keeps method names.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { build } from 'vite';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

let outDir = '';
let staticFiles: string[] = [];
let workerFiles: string[] = [];
const code = (file: string) => readFileSync(join(outDir, file), 'utf8');

// One build for the file (a production build takes 10–30 s on a busy 2-core machine).
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'geoshard-first-screen-'));
  // Vitest sets NODE_ENV=test, which would give React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: join(root, 'vite.config.ts'), mode: 'production', logLevel: 'silent', build: { outDir, emptyOutDir: true, sourcemap: false, manifest: 'manifest.json' } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const manifest = JSON.parse(code('manifest.json')) as Record<string, Chunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) visit(k);
  };
  visit(entry);
  staticFiles = [...seen].map((k) => manifest[k].file);
  // Workers are not in the manifest: their files are.
  workerFiles = readdirSync(join(outDir, 'assets'))
    .filter((f) => /\.worker-[\w-]+\.js$/.test(f))
    .map((f) => `assets/${f}`);
  return () => rmSync(outDir, { recursive: true, force: true });
}, 300_000);

describe('the first screen’s JavaScript (production build)', () => {
  it('leaves out the three.js classes the scene never creates', () => {
    // (A boolean, so a failure names the file instead of printing the bundle.)
    for (const f of staticFiles) expect(/isMeshStandardMaterial\s*=\s*(!0|true)/.test(code(f)), `${f} has MeshStandardMaterial`).toBe(false);
  });

  it('leaves out the parts of s2js the explorer never calls, in the page and in every worker', () => {
    expect(workerFiles.length).toBeGreaterThan(0);
    for (const f of [...staticFiles, ...workerFiles]) expect(code(f).includes('compareBoundary'), `${f} has s2js's Loop`).toBe(false);
  });

  it('leaves s2’s caps, its exact predicates and bigfloat out of what the page loads first (the workers that cover circles still have them)', () => {
    // Cap.fromCenterAngle is a static method (a minifier keeps property names); bigfloat's UMD
    // bundle sets `exports.BigFloat53`. Both reach the page through s2's Point, Cell or Rect:
    // cells.ts and stuv.ts give the page its cells without them (ShardTable, not Router).
    const all = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js')).map((f) => code(`assets/${f}`)).join('\n');
    for (const marker of ['fromCenterAngle', 'BigFloat53']) {
      expect(all.includes(marker), `${marker} is in no file of the build`).toBe(true);
      for (const f of staticFiles) expect(code(f).includes(marker), `${f} has ${marker}`).toBe(false);
    }
  });

  it('carries the GLSL of three’s built-in materials only as stubs, and the two chunks a ShaderMaterial needs in full', () => {
    // vite.config.ts (threeShaderChunks): getAlphaHashThreshold is in a built-in material's chunk
    // (alphahash_pars_fragment); three adds ACESFilmicToneMapping (tonemapping_pars_fragment)
    // and sRGBTransferOETF (colorspace_pars_fragment) to every ShaderMaterial's fragment shader.
    const first = staticFiles.map(code).join('\n');
    expect(first.includes('getAlphaHashThreshold'), 'a built-in chunk is in the first screen').toBe(false);
    expect(first.includes('shader chunk <alphahash_pars_fragment> is left out')).toBe(true);
    for (const kept of ['ACESFilmicToneMapping', 'sRGBTransferOETF']) expect(first.includes(kept), `${kept} is missing`).toBe(true);
  });

  it('keeps the panels that load on demand (live, review, nodes, migration) out of what the page loads first', () => {
    const names = staticFiles.join(' ');
    for (const panel of ['LivePanel', 'ReviewPanel', 'NodesPanel', 'MigrationPanel', 'ReviewRibbon']) expect(names).not.toContain(panel);
  });

  it('stays within 287 KB gzip before the page can draw (issue 12 measured 516 KB; issue 24 measured 337 KB, then 318 KB, 321 KB with the paste box’s any-level S2 tokens, then 280 KB without s2’s regions, the review’s diff and editor, and three’s built-in GLSL; its target, 290 KB, is met; 284 KB with the search’s answer drawn in the first frame)', () => {
    const gzipKb = staticFiles.reduce((n, f) => n + gzipSync(readFileSync(join(outDir, f)), { level: 9 }).length, 0) / 1024;
    expect(gzipKb).toBeLessThan(287);
  });

  it('keeps the Radius tab’s controls and tables, the tour and the live API client out of what the page loads first, and the search’s answer in it', () => {
    // Each loads after the first frame (featureViews.ts, App.tsx) or with its tab; the markers are
    // strings only those modules hold: test ids of RadiusPanel's parts and Tour, and the API
    // client's message for a server without /api (api/request.ts).
    const first = staticFiles.map(code).join('\n');
    const all = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js')).map((f) => code(`assets/${f}`)).join('\n');
    for (const marker of ['worked-details', 'cities-details', 'tour-no-node', 'The live API is not served here']) {
      expect(all.includes(marker), `${marker} is in no file of the build`).toBe(true);
      expect(first.includes(marker), `${marker} is in the first screen`).toBe(false);
    }
    // The answer a search link opens on (SearchResult: cells, shards, routing) comes with the first frame.
    expect(first.includes('cells-per-shard'), 'the search result is not in the first screen').toBe(true);
  });
});
