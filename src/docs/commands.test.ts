/**
 * Every command block of the docs keeps its promise (src/docs/markdown.ts says what a command
 * block is): the line before its fence is either `<!-- run: TEST -->`, naming the live test that
 * runs it as printed, or `<!-- excerpt: WHY -->`, saying why it is not run. A block with neither
 * fails, as does a command in a code block made by indentation (it cannot carry a mark).
 *
 * A run mark must name a test file that exists and reads this page (its path appears in the
 * test), so a mark cannot claim a run nobody does; an excerpt must say why in a few words. The
 * generated references (their synopses are the CLI's help) are left to their own test.
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docFiles, rel, commandBlocks, fences, indentedCommands, GENERATED_DOCS, ROOT } from './markdown.ts';

const pages = docFiles()
  .map((f) => ({ page: rel(f), md: readFileSync(f, 'utf8') }))
  .filter((p) => !GENERATED_DOCS.includes(p.page));

describe('the command blocks of the docs', () => {
  it('each runs in a test as printed or is marked as an excerpt, saying why', () => {
    const unmarked: string[] = [];
    for (const { page, md } of pages) {
      for (const b of commandBlocks(md)) if (!b.mark) unmarked.push(`${page}:${b.line}: ${b.commands[0]} (mark it <!-- run: TEST --> or <!-- excerpt: WHY -->)`);
    }
    expect(unmarked).toEqual([]);
  });

  it('a run mark names a live test that exists and reads the page', () => {
    const wrong: string[] = [];
    for (const { page, md } of pages) {
      for (const b of commandBlocks(md)) {
        if (b.mark?.kind !== 'run') continue;
        const test = b.mark.test;
        if (!/^src\/.+\.(live|secure)\.test\.ts$/.test(test) || !existsSync(join(ROOT, test))) wrong.push(`${page}:${b.line}: run by ${test}, which is not a live or secure test of this repository`);
        else if (!readFileSync(join(ROOT, test), 'utf8').includes(page)) wrong.push(`${page}:${b.line}: ${test} never names ${page}, so it does not run this block`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('an excerpt says why it is not run', () => {
    const wrong: string[] = [];
    for (const { page, md } of pages) {
      for (const b of commandBlocks(md)) if (b.mark?.kind === 'excerpt' && b.mark.reason.split(/\s+/).length < 4) wrong.push(`${page}:${b.line}: excerpt "${b.mark.reason}" does not say why`);
    }
    expect(wrong).toEqual([]);
  });

  it('marks sit only before command blocks', () => {
    const stray: string[] = [];
    for (const { page, md } of pages) {
      const marked = new Set(commandBlocks(md).map((b) => b.line));
      for (const f of fences(md)) if (f.mark && !marked.has(f.line)) stray.push(`${page}:${f.line}: a ${f.mark.kind} mark before a block that holds no command`);
      const lines = md.split('\n');
      const before = new Set(fences(md).filter((f) => f.mark).map((f) => f.line));
      lines.forEach((l, i) => {
        if (/^\s*<!--\s*(run|excerpt):/.test(l)) {
          let k = i + 1;
          while (k < lines.length && lines[k].trim() === '') k++;
          if (!before.has(k + 1)) stray.push(`${page}:${i + 1}: a mark that is not right before a fence`);
        }
      });
    }
    expect(stray).toEqual([]);
  });

  it('no command sits in a code block made by indentation (it cannot carry a mark: fence it)', () => {
    const found = pages.flatMap(({ page, md }) => indentedCommands(md).map((l) => `${page}:${l}`));
    expect(found).toEqual([]);
  });

  it('the definitions hold on examples', () => {
    const md = [
      '<!-- run: src/docs/docs.live.test.ts -->',
      '```sh',
      'npx geoshard cover --lat 1 --lng 2 --radius 5mi',
      '```',
      '',
      '```json',
      '{ "index": "x" }',
      '```',
      '',
      '```text',
      'geoshard cells: field "name" is a keyword',
      '```',
      '',
      '```yaml',
      '      - run: npx geoshard check --candidate c.json',
      '```',
      '',
      '  <!-- excerpt: the user\'s own file, not ours -->',
      '  ```',
      '  curl -s localhost:9200',
      '  ```',
      '',
      'text',
      '',
      '    $ npx geoshard route --lat 1 --lng 2',
    ].join('\n');
    const blocks = commandBlocks(md);
    expect(blocks.map((b) => [b.line, b.lang, b.mark?.kind ?? null])).toEqual([
      [2, 'sh', 'run'],
      [14, 'yaml', null],
      [19, '', 'excerpt'],
    ]);
    expect(blocks[1].commands).toEqual(['- run: npx geoshard check --candidate c.json']);
    expect(indentedCommands(md)).toEqual([25]);
  });
});
