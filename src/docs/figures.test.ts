/**
 * Every figure the docs state comes from the results file (bench/results.json) through a fact
 * mark, so a figure changes in one place (src/docs/facts.ts).
 *
 * A figure, here: in a doc's prose (outside fenced and inline code, HTML comments and fact marks),
 * - a number with a unit of measure right after it: time (`ns`, `µs`, `ms`, `s`, `min`, `h`),
 *   a ratio (`2.4×`, `2.4x`, written against the number; `390×844`, a size, is not one), a share
 *   (`%`), a size (`KB`, `MB`, `GB`, `TB`, `KiB`, `MiB`, `GiB`), a rate (`/s`, `documents/s`,
 *   `searches/s`, `M/s`, …); a range (`1.4–3.0 ms`) and an approximation (`~14 min`) count;
 * - in a table, a cell that is only a number (`9.8`, `204,725`, `**1.07×**`) in a column whose
 *   header names a measure (a unit such as `s`, `MB`, `/s`, `×`, `%`, `÷`, or time, rate, CPU,
 *   RSS, p50, p99, took, wall, load, bytes, speed-up, gain): a measured value under its unit.
 * Counts without a unit (documents, shards, cells) are not figures; the bundled files' counts
 * are facts of their own (src/docs/facts.ts bundledFacts).
 *
 * Not checked: the lab notes (docs/performance-lab-notes.md), the journal of every run as it was
 * written up, from which the runs of the results file were entered; the generated references.
 * And a value that no run measured but the code or the docs set (a default, a limit, a bound, a
 * test's cap, a budget) is listed in SETTINGS below with the words around it, so each is a
 * decision visible here, and an entry whose words are gone fails.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { docFiles, rel, prose, readDoc, GENERATED_DOCS } from './markdown.ts';

/** The journal of runs: figures as they were written up. */
const JOURNAL = 'docs/performance-lab-notes.md';

const NUM = String.raw`[~≈]?\d[\d,]*(?:\.\d+)?`;
const RANGE = String.raw`${NUM}(?:\s?[–-]\s?${NUM})?`;
const UNIT = String.raw`(?:×(?!\s?\d)|x\b(?!\s?\d)|\s?%|\s?(?:ns|µs|us|ms|s|min|h|KB|MB|GB|TB|KiB|MiB|GiB)\b|\s?(?:[kM]\s?)?(?:documents|docs|searches|writes|operations|requests|ids)?\/s\b)`;
/** A number with a unit of measure. */
export const FIGURE = new RegExp(String.raw`(?<![\w.,/:#-])${RANGE}${UNIT}`, 'g');
/** A table cell that is only a number. */
const NUMBER_CELL = /^\s*(?:\*\*)?[~≈]?\d[\d,]*(?:\.\d+)?(?:\*\*)?\s*$/;
/** A column header that names a measure. */
const MEASURE_HEADER = /(?:^|[\s(:])(?:ns|µs|ms|s|min|h|KB|MB|GB|KiB|MiB|GiB|bytes)(?:$|[\s),])|\/s\b|×|÷|%|\b(?:time|rate|CPU|RSS|p50|p99|took|wall|load|speed-up|gain|evenness|heaviest)\b/i;

/**
 * Values set, not measured: per doc, the words around each (exact text of the doc's line, the
 * value included). Each is a default, a limit, a bound or a budget of the code or of its tests.
 */
const SETTINGS: Record<string, string[]> = {
  'docs/app-architecture.md': ['≤ 287 KB gzip'],
  'docs/cli.md': ['1 MiB'],
  'docs/demo.md': ['within a p99 of 100 ms'],
  'docs/engine-paths.md': ['512 MB heap', 'the bound the test states (8 MB)'],
  'docs/library.md': ['a budget of 6 MB'],
  'docs/live-mode.md': ['gives OpenSearch a 5 s deadline', '1 GiB for one node, 512 MiB each for several', '2-core / 24 GiB machine', 'every 2 s while it is open'],
  'docs/moving-boundaries.md': ['the search deadline + 1 s', '(default 30 s)'],
  'docs/packages.md': ["the core's budget is 6 MB", 'at most 6 MB', '7.5 MB and no other package'],
  'docs/plugin.md': ['2 × AMD EPYC cores, 24 GiB, OpenSearch 2.19.6', '(512 MB heap each)', 'rounds of an 8 s block per mode', 'bytes (about 6.9 MB) of arrays'],
  'docs/performance.md': ['24 GiB, shared with other work', 'Capacity within p99 ≤ 100 ms', 'documents/s varied 2× between rounds'],
  'docs/reference/boundary-file.md': ['1 MiB'],
  'docs/scale.md': ['4 GB heap', '(40 % creates, 40 % updates, 20 % deletes)', 'under a 256 MB heap cap', 'the heap passes 160 MB', '4 MiB a', 'progress every 2 s', '(85% by default)', 'plan 1 GB'],
  'docs/traffic.md': ['75% of them within 2 miles', 'for 36 s, then of Chicago', 'for 36 s, the rest', 'every 4 s.'],
  'docs/troubleshooting.md': ['5000 ms'],
  'docs/workloads.md': ['- 85% background searches', 'radii 2 mi 20%, 5 mi', '35%, 15 mi 30%, 25 mi 10%, 50 mi 5%', '- 15% hot spots', 'shards at 2× the mean load'],
  'docs/writing.md': ['(default 1 s)', '(100 ms doubling to 2 s', '(default 30 s)', 'at most 16 KiB', 'for 5 s:', '(remembered for at most 1 s)', 'every 100 ms for up to 1 s'],
};

/** figuresOf lists the figures of a doc's text that no fact mark carries: [line, figure]. */
export function figuresOf(md: string): [number, string][] {
  const text = prose(md)
    .replace(/<!-- fact:[\w.-]+ -->[\s\S]*?<!-- \/fact -->/g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/<!--[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ' '));
  const out: [number, string][] = [];
  const lines = text.split('\n');
  /** The measured columns of the table the current line is in (by its header row). */
  let measured: boolean[] = [];
  lines.forEach((line, i) => {
    for (const m of line.matchAll(FIGURE)) out.push([i + 1, m[0].trim()]);
    const cells = (l: string) => l.trim().replace(/^\||\|$/g, '').split('|');
    if (!/^\s*\|/.test(line)) {
      measured = [];
      return;
    }
    // A header row is the row above a delimiter row (| --- | ---: |).
    if (/^\s*\|[\s|:-]+\|\s*$/.test(lines[i + 1] ?? '')) {
      measured = cells(line).map((h) => MEASURE_HEADER.test(h));
      return;
    }
    if (/^\s*\|[\s|:-]+\|\s*$/.test(line)) return;
    cells(line).forEach((cell, k) => {
      if (measured[k] && NUMBER_CELL.test(cell)) out.push([i + 1, cell.trim()]);
    });
  });
  return out;
}

describe('figures in the docs', () => {
  const pages = docFiles()
    .map((f) => ({ page: rel(f), md: readFileSync(f, 'utf8') }))
    .filter((p) => p.page !== JOURNAL && !GENERATED_DOCS.includes(p.page));

  it('come from the results file through fact marks, or are settings listed here', () => {
    const loose: string[] = [];
    for (const { page, md } of pages) {
      const lines = md.split('\n');
      for (const [line, figure] of figuresOf(md)) {
        if ((SETTINGS[page] ?? []).some((words) => lines[line - 1].includes(words) && words.includes(figure.replace(/^[~≈]/, '')))) continue;
        loose.push(`${page}:${line}: ${figure}  (quote it as <!-- fact:RUN.NAME --> from bench/results.json, or list it in SETTINGS if no run measured it)`);
      }
    }
    expect(loose).toEqual([]);
  });

  it('every setting listed is still in its doc', () => {
    const gone: string[] = [];
    for (const [page, list] of Object.entries(SETTINGS)) {
      const md = readDoc(page);
      for (const words of list) if (!md.includes(words)) gone.push(`${page}: "${words}"`);
    }
    expect(gone).toEqual([]);
  });

  it('the definition holds on examples', () => {
    const md = [
      'took 956.6 s (1.07× the time; 47,830 documents/s), 1.22 M documents/s, 4.7 M/s, 440 MB, ~14 min',
      'a 390×844 phone, 2 × Intel, 15 shards, 20,006,688 documents, version 2.19.6, 16 KiB',
      '| phase | 2 M: s | documents/s |',
      '| --- | ---: | ---: |',
      '| cells | 9.8 | 204,725 |',
      '',
      '| status | HTTP | documents |',
      '| --- | ---: | ---: |',
      '| complete | 200 | 219,214 |',
      'quoted: <!-- fact:scale20m.switch20m -->3.2 s<!-- /fact --> and `5 s` in code',
      '<!-- 7 ms in a comment -->',
    ].join('\n');
    expect(figuresOf(md)).toEqual([
      [1, '956.6 s'],
      [1, '1.07×'],
      [1, '47,830 documents/s'],
      [1, '1.22 M documents/s'],
      [1, '4.7 M/s'],
      [1, '440 MB'],
      [1, '~14 min'],
      [2, '16 KiB'],
      [5, '9.8'],
      [5, '204,725'],
    ]);
    expect(figuresOf('| `npm install geoshard` | bytes |\n|---|---:|\n| core | 5,907,765 |')).toEqual([[3, '5,907,765']]);
  });
});
