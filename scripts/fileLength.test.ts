/**
 * The 400-line rule of docs/architecture.md ("The 400-line rule"), held to the files: every
 * source file git tracks (TypeScript, JavaScript, Java) of more than 400 lines is named in that
 * section, and where the section gives a file's length in parentheses, it is the file's length.
 * So the list of exceptions and their reasons cannot fall behind the code.
 */
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIMIT = 400;

/** Lines of a file as `wc -l` counts them (newline characters). */
const linesOf = (path: string) => (readFileSync(join(ROOT, path), 'utf8').match(/\n/g) ?? []).length;

/** The section's text, and each backquoted path in it with the count that follows it, if any. */
function exceptionsOf(doc: string): { named: Set<string>; counts: Map<string, number> } {
  const start = doc.indexOf('## The 400-line rule');
  if (start < 0) throw new Error('docs/architecture.md has no "## The 400-line rule" section');
  const next = doc.indexOf('\n## ', start + 3);
  const section = doc.slice(start, next < 0 ? undefined : next);
  const named = new Set<string>();
  const counts = new Map<string, number>();
  for (const m of section.matchAll(/`([\w./-]+\.(?:ts|tsx|mjs|js|java|json))`(?:\s*\((\d+)\b)?/g)) {
    named.add(m[1]);
    if (m[2] !== undefined) counts.set(m[1], Number(m[2]));
  }
  return { named, counts };
}

describe('the 400-line rule', () => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const { named, counts } = exceptionsOf(doc);
  const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.js', '*.java'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

  it('names every source file over 400 lines in docs/architecture.md, with its reason', () => {
    const long = files.filter((f) => linesOf(f) > LIMIT);
    expect(long.length).toBeGreaterThan(0); // the rule has exceptions today; an empty list would mean the count is wrong
    expect(long.filter((f) => !named.has(f)).map((f) => `${f} (${linesOf(f)} lines)`)).toEqual([]);
  });

  it("gives each named file's length as the file has it", () => {
    expect(counts.size).toBeGreaterThan(5);
    const wrong = [...counts].filter(([f, n]) => linesOf(f) !== n).map(([f, n]) => `${f}: the doc says ${n}, the file has ${linesOf(f)}`);
    expect(wrong).toEqual([]);
  });

  it('reads the section as written: a path with its count, a path without', () => {
    const { named: n, counts: c } = exceptionsOf('## The 400-line rule\n- `a/b.ts` (412): why;\n- `c.mjs` runs it\n## Next\n- `d.ts` (900)');
    expect([...n]).toEqual(['a/b.ts', 'c.mjs']);
    expect([...c]).toEqual([['a/b.ts', 412]]);
  });
});
