/**
 * Comments and READMEs that name a file of this repository name one that exists: a moved or
 * deleted file leaves no comment pointing at it (issue 21 found several naming `src/app/lib/*`,
 * gone since the explorer's redesign).
 *
 * Scans the comments of every tracked source file (TypeScript, TSX and JavaScript through the
 * TypeScript parser, so string literals are not comments; `#` lines of shell scripts; CSS and
 * HTML comments; `//` lines of tsconfig files) and the whole text of every tracked README.md,
 * for paths that start at one of the repository's folders (src/, e2e/, scripts/, bench/, data/,
 * docs/, public/). A path is part of a longer one (`../src/x`, `/tmp/data/x`, a URL) when a
 * `/`, `.`, `:` or word character precedes it, and is then skipped; dist/, node_modules/ and
 * test-results/ are not scanned (generated), and GENERATED lists the files under those folders that
 * a command writes and git ignores. A glob (`bench/*.bench.ts`, `src/app/{a,b}`) must match at
 * least one tracked path; a path without an extension may name a module (`src/core/router` for
 * router.ts). A relative path to a source file (`live/liveRunner.ts`, `./fanout.worker.ts`) must
 * name a file relative to the commenting file's folder or one of its parents; in a README, whose
 * sections name their folder (`src/core`) in a heading, the end of some tracked path.
 */
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

/** The folders a repository path starts with. */
const FOLDERS = ['src', 'e2e', 'scripts', 'bench', 'data', 'docs', 'public'];
/** A candidate path: a folder, a slash, then path characters (globs and braces included). */
const PATH = new RegExp(`(?<![\\w./:@~-])(?:${FOLDERS.join('|')})/[\\w./*{},\\-]*`, 'g');

/**
 * Files a command writes under those folders, not committed (the command named beside each).
 * None today: bench/results.json, which benchmarks write, is committed (the docs quote it).
 */
const GENERATED = new Map<string, string>([]);
/** A relative path to a source file that starts at no repository folder: `live/liveRunner.ts`, `./x.ts`. */
const RELATIVE = new RegExp(`(?<![\\w./:@~-])(?!(?:${FOLDERS.join('|')})/)(?:\\.{1,2}/)*(?:[\\w-]+/)+[\\w.-]+\\.(?:ts|tsx|mjs|css)\\b`, 'g');

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
/** Every tracked file and every folder that holds one. */
const existing = new Set(tracked.flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

/** commentsOf returns the comment text of one tracked file (the whole text for a README). */
export function commentsOf(path: string, text: string): string[] {
  if (/(^|\/)README\.md$/.test(path)) return [text];
  if (/\.(ts|tsx|mjs|js)$/.test(path)) {
    const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const seen = new Set<number>();
    const out: string[] = [];
    const take = (ranges: readonly import('typescript').CommentRange[] | undefined) => {
      for (const r of ranges ?? []) {
        if (seen.has(r.pos)) continue;
        seen.add(r.pos);
        out.push(text.slice(r.pos, r.end));
      }
    };
    const visit = (n: import('typescript').Node) => {
      take(ts.getLeadingCommentRanges(text, n.pos));
      take(ts.getTrailingCommentRanges(text, n.end));
      // Tokens too (a comment before a closing brace or inside JSX braces belongs to no node).
      for (const child of n.getChildren(file)) visit(child);
    };
    visit(file);
    // A shebang line is not a comment.
    return out.filter((c) => !c.startsWith('#!'));
  }
  if (/\.sh$|(^|\/)\.ci\/run$|\.gitignore$/.test(path)) return text.split('\n').flatMap((l) => /(?:^|\s)#(?!!)(.*)$/.exec(l)?.[1] ?? []);
  if (/\.css$/.test(path)) return text.match(/\/\*[\s\S]*?\*\//g) ?? [];
  if (/\.html$/.test(path)) return text.match(/<!--[\s\S]*?-->/g) ?? [];
  if (/(^|\/)tsconfig[\w.]*\.json$/.test(path)) return text.split('\n').flatMap((l) => /^\s*\/\/(.*)$/.exec(l)?.[1] ?? []);
  return [];
}

/** expand turns `{a,b}` alternatives into every spelling. */
function expand(path: string): string[] {
  const m = /\{([^{}]*)\}/.exec(path);
  if (!m) return [path];
  return m[1].split(',').flatMap((alt) => expand(path.slice(0, m.index) + alt + path.slice(m.index + m[0].length)));
}

/** exists says whether a named path (no globs) is a tracked file or folder, or a module path without its extension. */
function exists(path: string): boolean {
  const p = path.replace(/\/+$/, '');
  return existing.has(p) || ['.ts', '.tsx', '.mjs', '.js', '.json'].some((ext) => existing.has(p + ext));
}

/** resolves says whether a candidate path (after trimming sentence punctuation) names something in the repository. */
export function resolves(candidate: string): boolean {
  if (GENERATED.has(candidate)) return true;
  return expand(candidate).every((path) => {
    if (!path.includes('*')) return exists(path);
    const glob = new RegExp(`^${path.replace(/\/+$/, '').replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\*\*\/?/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:.*/)?')}$`);
    return [...existing].some((f) => glob.test(f));
  });
}

/** pathsIn returns the candidate repository paths a comment names, trimmed of trailing sentence punctuation. */
export function pathsIn(comment: string): string[] {
  return [...comment.matchAll(PATH)].map((m) => m[0].replace(/[.,]+$/, '').replace(/\.{3}$/, '')).filter((p) => !/\/$/.test(p) || p.length > 0);
}

/** relativeMissing returns the relative source paths in a comment of `file` that name no file from its folder or any parent (for a README: that end no tracked path). */
export function relativeMissing(file: string, comment: string): string[] {
  const folders = file.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, parts.length - i).join('/'));
  folders.push('');
  const readme = /(^|\/)README\.md$/.test(file);
  return [...comment.matchAll(RELATIVE)]
    .map((m) => m[0])
    .filter((p) => !(readme ? tracked.some((t) => t.endsWith(`/${p.replace(/^(\.\/)+/, '')}`)) : folders.some((dir) => existing.has(posix.normalize(posix.join(dir, p))))));
}

describe('paths named by comments and READMEs', () => {
  it('finds paths, globs and module names, and skips URLs and longer paths', () => {
    expect(pathsIn('see src/core/router.ts, and bench/*.bench.ts.')).toEqual(['src/core/router.ts', 'bench/*.bench.ts']);
    expect(pathsIn('https://github.com/x/src/a.ts /tmp/data/x.json ../src/core/cells.ts node_modules/data/x')).toEqual([]);
    expect(resolves('src/core/router')).toBe(true);
    expect(resolves('src/core/{router,cells}.ts')).toBe(true);
    expect(resolves('src/core/{router,nowhere}.ts')).toBe(false);
    expect(resolves('src/app/lib/*')).toBe(false);
    expect(resolves('bench/*.bench.ts')).toBe(true);
    expect(relativeMissing('src/app/live/liveApi.ts', '// lib/liveRunner.ts, live/liveRunner.ts, ./liveSlice.ts, ../search/search.ts')).toEqual(['lib/liveRunner.ts']);
    expect(commentsOf('x.ts', "// names src/a.ts\nconst s = 'src/b.ts'; /* and src/c.ts */")).toEqual(['// names src/a.ts', '/* and src/c.ts */']);
  });

  it('name only files and folders that exist', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const path of tracked) {
      if (!/\.(ts|tsx|mjs|js|sh|css|html)$|(^|\/)README\.md$|(^|\/)tsconfig[\w.]*\.json$|^\.ci\/run$/.test(path)) continue;
      // This file's own comments name missing paths on purpose, as examples.
      if (path === 'scripts/commentPaths.test.ts') continue;
      const text = readFileSync(resolve(ROOT, path), 'utf8');
      for (const comment of commentsOf(path, text)) {
        for (const p of pathsIn(comment)) {
          // "docs/s" is documents per second, not the docs/ folder.
          if (p === 'docs/s') continue;
          checked++;
          if (!resolves(p)) missing.push(`${path}: ${p}`);
        }
        for (const p of relativeMissing(path, comment)) missing.push(`${path}: ${p}`);
      }
    }
    console.log(`commentPaths: ${checked} repository paths named`);
    expect(checked, 'the scan finds the paths comments name').toBeGreaterThan(200);
    expect(missing, 'comments naming paths that do not exist (fix the comment, or the path)').toEqual([]);
  });
});
