#!/usr/bin/env node
// `node scripts/app-imports.mjs [--json]`: the explorer's house, measured. For each folder of
// src/app: its files, and its imports of the other src/app folders (static `import … from`,
// `export … from` and dynamic `import()`; type-only imports count too), with the kinds of folder
// named: the rendering kit (globe/), the host (shell/, api/, ui/, and the files directly in src/app:
// main.tsx, features.ts, featureViews.ts) and the features (every other folder). src/app/kit.test.ts holds the
// rule this measures: the kit imports no feature.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const APP = join(ROOT, 'src', 'app');

/** The rendering kit's folder: materials, uniforms, shaders, view, frame, line geometry, the canvas. */
export const KIT = 'globe';
/**
 * The host: the store, the URL codec, the palette, the side panel, boot (shell/), the live API's
 * client every feature may use (api/), the shared CSS (ui/); `.` is src/app itself.
 */
export const HOST = ['shell', 'api', 'ui', '.'];

/** The feature list (src/app/features.ts, featureViews.ts): the host's one place that names every feature. */
export const LIST = ['features.ts', 'featureViews.ts'];

/** walk lists the files under `dir` (paths relative to src/app, `/`-separated). */
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(relative(APP, p).split(sep).join('/'));
  }
  return out;
}

/** folderOf names the src/app folder of a path relative to src/app (`.` for the files directly in it). */
const folderOf = (rel) => (rel.includes('/') ? rel.split('/')[0] : '.');

/** specifiers returns the module specifiers a source file imports (static, re-exports, dynamic). */
export function specifiers(text) {
  const out = [];
  // A statement starts a line (or follows a `;`); a dynamic import may stand anywhere.
  const re = /(?:^|;)\s*(?:import|export)\s+(?:type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|;)\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * house measures src/app: per folder its files, its kind (kit, host or feature) and, per other
 * src/app folder it imports, the importing file and the specifier.
 */
export function house() {
  const files = walk(APP);
  const folders = {};
  for (const f of files) {
    const folder = folderOf(f);
    folders[folder] ??= { kind: folder === KIT ? 'kit' : HOST.includes(folder) ? 'host' : 'feature', files: [], imports: {} };
    folders[folder].files.push(f);
    if (!/\.(tsx?|mjs|js)$/.test(f)) continue;
    for (const spec of specifiers(readFileSync(join(APP, f), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(APP, resolve(dirname(join(APP, f)), spec)).split(sep).join('/');
      if (target.startsWith('..')) continue; // outside src/app (src/core…)
      const to = folderOf(target);
      if (to === folder) continue;
      (folders[folder].imports[to] ??= []).push({ file: f, spec });
    }
  }
  return folders;
}

/** crossings lists every import from a folder of kind `from` into a folder of kind `to`. */
export function crossings(folders, from, to) {
  const out = [];
  for (const [name, f] of Object.entries(folders)) {
    if (f.kind !== from) continue;
    for (const [target, list] of Object.entries(f.imports)) if (folders[target]?.kind === to) for (const i of list) out.push({ from: name, to: target, ...i });
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = house();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(folders, null, 2));
  } else {
    for (const [name, f] of Object.entries(folders).sort()) {
      const imp = Object.entries(f.imports).map(([t, l]) => `${t} ${l.length}`).join(', ');
      console.log(`${name.padEnd(10)} ${f.kind.padEnd(7)} ${String(f.files.length).padStart(3)} files  imports: ${imp || '-'}`);
    }
    const kit = crossings(folders, 'kit', 'feature');
    const ff = crossings(folders, 'feature', 'feature');
    const hf = crossings(folders, 'host', 'feature');
    console.log(`\nkit -> feature imports: ${kit.length}`);
    for (const i of kit) console.log(`  ${i.file} -> ${i.spec}`);
    console.log(`feature -> other feature imports: ${ff.length}`);
    for (const i of ff) console.log(`  ${i.file} -> ${i.spec}`);
    // The feature list is where the host meets the features; tests may import what they test.
    const listed = hf.filter((i) => LIST.includes(i.file));
    const tests = hf.filter((i) => !LIST.includes(i.file) && /\.test\.tsx?$/.test(i.file));
    const other = hf.filter((i) => !LIST.includes(i.file) && !/\.test\.tsx?$/.test(i.file));
    console.log(`host -> feature imports: ${hf.length} (${listed.length} in the feature list ${LIST.join(', ')}; ${tests.length} in tests; ${other.length} elsewhere)`);
    for (const i of other) console.log(`  ${i.file} -> ${i.spec}`);
  }
}
