/**
 * Nothing invented in the package or its docs: every http(s) address in the files the package
 * ships (package.json `files`: the built dist/ when present, the data files, the licence and the
 * changelog), in package.json itself and in the docs (README.md, docs/) is to something real, and
 * the list below says what each host is. A repository, homepage, tracker or tag that does not
 * exist has no place; package.json has no `repository`, `homepage` or `bugs` until one does.
 *
 * Allowed: the reader's own machine (127.0.0.1, localhost); names reserved for examples
 * (RFC 2606: `*.example`, `example.com`), which stand for the reader's cluster; and real pages
 * named one by one (a dependency's repository is checked against its installed package.json).
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { docFiles, rel, ROOT } from './markdown.ts';

/** Real addresses, by prefix, and what each is. */
const REAL: [prefix: string, what: string][] = [
  ['https://keepachangelog.com/en/1.1.0/', 'the changelog format CHANGELOG.md follows'],
  ['https://semver.org/spec/v2.0.0.html', 'the versioning CHANGELOG.md follows'],
  ['https://creativecommons.org/licenses/by/4.0/', "GeoNames' licence (docs/data.md, data/README.md)"],
  ['https://json-schema.org/draft/2020-12/schema', 'the JSON Schema meta-schema the published schemas declare'],
  ['http://www.apache.org/licenses/', 'the licence (LICENSE)'],
  ['https://www.apache.org/licenses/', 'the licence (LICENSE)'],
];

/** Addresses that are not real and are reported, each with who owns the fix; an entry whose address is gone fails. */
const PENDING: [prefix: string, why: string][] = [];

/** A dependency's repository on GitHub, as its installed package.json names it. */
function dependencyRepositories(): Set<string> {
  const out = new Set<string>();
  const modules = join(ROOT, 'node_modules');
  for (const name of readdirSync(modules)) {
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => join(modules, name, n)) : [join(modules, name)];
    for (const d of dirs) {
      const pkgPath = join(d, 'package.json');
      if (!existsSync(pkgPath)) continue;
      const repo = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { repository?: string | { url?: string } }).repository;
      const url = typeof repo === 'string' ? repo : repo?.url;
      const m = url && (/github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?(?:#.*)?$/.exec(url) ?? /^github:([\w.-]+\/[\w.-]+)$/.exec(url));
      if (m) out.add(`https://github.com/${m[1]}`);
    }
  }
  return out;
}

/** The files the package ships (as they are in this checkout) and the docs. */
function scanned(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  const out = new Set<string>([join(ROOT, 'package.json'), ...docFiles()]);
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
    else if (!/\.(png|gz|tgz)$/.test(p)) out.add(p);
  };
  for (const f of pkg.files) walk(join(ROOT, f));
  return [...out];
}

/** Every http(s) address of a text (one made of a variable, `${host}` or `$OPENSEARCH_PORT`, is a template, not an address). */
export function urlsOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s)"'`<>\]\\]+/g)].map((m) => m[0].replace(/[.,;:!?]+$/, '')).filter((u) => !u.includes('$'));
}

describe('addresses in the package and the docs', () => {
  const repos = dependencyRepositories();
  const deps = new Set(Object.keys((JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }).packages).map((k) => k.replace(/^.*node_modules\//, '')));

  /** Why an address is allowed, or null. */
  function allowed(url: string): string | null {
    const u = new URL(url);
    if (u.hostname === '127.0.0.1' || u.hostname === 'localhost') return "the reader's own machine";
    if (/\.example$/.test(u.hostname) || /(^|\.)example\.com$/.test(u.hostname)) return 'a name reserved for examples (RFC 2606)';
    const real = REAL.find(([p]) => url.startsWith(p));
    if (real) return real[1];
    if (u.hostname === 'github.com' && [...repos].some((r) => url === r || url.startsWith(`${r}/`) || url.startsWith(`${r}#`))) return "a dependency's repository, as its package.json names it";
    const npm = /^https:\/\/www\.npmjs\.com\/package\/((?:@[\w.-]+\/)?[\w.-]+)$/.exec(url);
    if (npm && deps.has(npm[1])) return 'a dependency on the npm registry';
    return null;
  }

  it('every address is real, from the list', () => {
    const wrong: string[] = [];
    for (const file of scanned()) {
      for (const url of urlsOf(readFileSync(file, 'utf8'))) {
        if (PENDING.some(([p]) => url.startsWith(p))) continue;
        let why: string | null = null;
        try {
          why = allowed(url);
        } catch {
          why = null;
        }
        if (!why) wrong.push(`${rel(file)}: ${url}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('package.json names no repository, homepage or tracker that does not exist', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.repository).toBeUndefined();
    expect(pkg.homepage).toBeUndefined();
    expect(pkg.bugs).toBeUndefined();
  });

  it('the README says how to report a problem', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/^## Reporting a problem$/m);
  });

  it('each pending address is still there (remove the entry once its owner fixes it)', () => {
    const all = scanned().flatMap((f) => urlsOf(readFileSync(f, 'utf8')));
    for (const [prefix] of PENDING) expect(all.some((u) => u.startsWith(prefix)), prefix).toBe(true);
  });

  it('the definitions hold on examples', () => {
    expect(urlsOf('see https://semver.org/spec/v2.0.0.html. Or `http://${host}/x` and (http://127.0.0.1:5173/).')).toEqual(['https://semver.org/spec/v2.0.0.html', 'http://127.0.0.1:5173/']);
  });
});
