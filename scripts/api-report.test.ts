/**
 * The package's public surface is the checked-in API reports (docs/api/*.api.md): this test
 * regenerates them from the sources (scripts/api-report.mjs, the TypeScript compiler API over
 * the declarations build:lib ships) and fails with the diff when the surface changed without its
 * report. After an intended change run `npm run api:report` and commit the reports with it.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain .mjs script, without declarations
import { apiReports, ENTRIES, UPDATE_COMMAND } from './api-report.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

type Entry = { specifier: string; source: string; report: string };
let reports: Map<string, string>;

beforeAll(() => {
  reports = apiReports(ROOT);
}, 120_000);

/** reportedNames lists the export names a report's declarations state (the `exported as` name for a renamed export). */
function reportedNames(report: string): string[] {
  const code = /```ts\n([\s\S]*)```/.exec(report)![1];
  return code.split('\n\n').map((block) => {
    const renamed = /^\/\/ exported as (\w+)$/m.exec(block);
    if (renamed) return renamed[1];
    const decl = block.split('\n').find((l) => !l.startsWith('//'))!;
    return /^export (?:declare )?(?:abstract )?(?:const|let|function|class|interface|type|enum|namespace) (\w+)/.exec(decl)![1];
  });
}

describe('the API reports (docs/api)', () => {
  it.each(ENTRIES as Entry[])('$report matches the surface of $specifier', (entry) => {
    const checkedIn = readFileSync(join(ROOT, entry.report), 'utf8');
    expect(reports.get(entry.report), `${entry.report} is out of date: the public surface of ${entry.specifier} changed. Review the diff, then run \`${UPDATE_COMMAND}\` and commit the report`).toBe(checkedIn);
  });

  it.each(ENTRIES as Entry[])('$specifier exports only named, documented declarations whose types it exports too', (entry) => {
    const text = readFileSync(join(ROOT, entry.source), 'utf8');
    const src = ts.createSourceFile(entry.source, text, ts.ScriptTarget.Latest, true);
    const star = src.statements.filter((s) => ts.isExportDeclaration(s) && !s.exportClause).map((s) => s.getText(src));
    expect(star, `${entry.source} re-exports whole modules: name each export instead`).toEqual([]);
    const report = reports.get(entry.report)!;
    expect(report).not.toContain('// (undocumented)');
    expect(report).not.toContain('// (references unexported');
  });

  it("lists every value the source entry exports at run time, and as many declarations as the report's count", async () => {
    for (const entry of ENTRIES as Entry[]) {
      const report = reports.get(entry.report)!;
      const names = reportedNames(report);
      expect(Number(/^(\d+) exports/m.exec(report)![1])).toBe(names.length);
      const runtime = Object.keys(await import(join(ROOT, entry.source)));
      expect(runtime.length).toBeGreaterThan(0);
      for (const name of runtime) expect(names, `${entry.specifier} exports ${name}`).toContain(name);
    }
  });
});
