/**
 * Guides without history: a task guide says what is true and how to do the task; lab notes,
 * dated runs and design history live in the performance pages (performance.md,
 * performance-lab-notes.md, scale.md) and the design pages.
 *
 * - No doc names an issue of this project (`issue 31`, `Issue #4`, `#31`); an upstream project's
 *   issue is written with its repository (`opensearch-project/security#566`).
 * - No guide tells a story of its making: phrases such as "hit this once", "before this change",
 *   "once hoped", "was measured", and no date in its prose (a dated run belongs to the
 *   performance pages), except the dates listed below with their words, which are facts of the
 *   task, not of a run.
 */
import { describe, it, expect } from 'vitest';
import { docFiles, rel, prose, readDoc } from './markdown.ts';

/** The task guides (docs/README.md's "Guides, by task", and the README's). */
export const GUIDES = [
  'docs/explorer.md',
  'docs/demo.md',
  'docs/adopting.md',
  'docs/your-index.md',
  'docs/writing.md',
  'docs/reviewing.md',
  'docs/moving-boundaries.md',
  'docs/auditing.md',
  'docs/workloads.md',
  'docs/live-mode.md',
  'docs/cli.md',
  'docs/security.md',
  'docs/troubleshooting.md',
  'docs/library.md',
];

/** Words that tell a story of the project's making rather than what is true. */
const HISTORY = /\b(?:hit this once|before this change|once hoped|was measured|were measured|used to be|at the time of writing|as of (?:today|20\d\d)|this session|last session|before issue)\b/i;

/** Dates a guide may state, with their words: facts of the task, not dates of a run. */
const DATES: Record<string, string[]> = {
  'docs/workloads.md': ['one week from Monday 2026-11-23'],
};

/** The text of a doc a reader reads as prose: code and comments blanked. */
const readable = (md: string) => prose(md).replace(/<!--[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ' '));

describe('the docs carry no history where a reader wants the task', () => {
  it('no doc names an issue of this project', () => {
    const found: string[] = [];
    for (const f of docFiles()) {
      readable(readDoc(rel(f)))
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/\b[Ii]ssues? #?\d+\b|(?<![\w/-])#\d+\b/g)) found.push(`${rel(f)}:${i + 1}: ${m[0]}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the guides say what is true and how, not how it came to be', () => {
    const found: string[] = [];
    for (const page of GUIDES) {
      const raw = readDoc(page).split('\n');
      readable(readDoc(page))
        .split('\n')
        .forEach((line, i) => {
          const h = HISTORY.exec(line);
          if (h) found.push(`${page}:${i + 1}: "${h[0]}"`);
          for (const m of line.matchAll(/\b20\d\d-\d\d-\d\d\b/g)) if (!(DATES[page] ?? []).some((w) => raw[i].includes(w) && w.includes(m[0]))) found.push(`${page}:${i + 1}: the date ${m[0]} (a dated run belongs to the performance pages)`);
        });
    }
    expect(found).toEqual([]);
  });

  it('every guide exists and the guides index lists it', () => {
    const index = readDoc('docs/README.md');
    for (const page of GUIDES) expect(index, page).toContain(`](${page.replace(/^docs\//, '')})`);
  });
});
