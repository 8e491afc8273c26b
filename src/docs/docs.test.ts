/**
 * The documentation is checked: in README.md, CHANGELOG.md and every .md file under docs/,
 * - every relative link and image resolves to a file, and every #anchor to a heading of it
 *   (GitHub's slugs);
 * - every doc is reachable from the README by links;
 * - the README stays within 250 lines;
 * - every `geoshard …` command line in a shell block is accepted by the CLI's parser (the
 *   command exists, its options exist and have values, no positional where none is taken,
 *   and no deprecated form);
 * - every fact marked `<!-- fact:KEY -->VALUE<!-- /fact -->` is what its source says (src/docs/facts.ts:
 *   the bundled files, the API reports, bench/results.json; `npm run docs:reference` writes them),
 *   and every `routing=NAME` about the bundled file names one of its shards.
 * The command blocks, the figures, the addresses and the guides' history have their own checks:
 * commands.test.ts, figures.test.ts, urls.test.ts, guides.test.ts.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { loadCommands } from '../cli/main.ts';
import { describeOptions, parse, setNoticeSink, type ParseSpec } from '../cli/args.ts';
import { docFiles, prose, rel, commandBlocks, withoutFences, GENERATED_DOCS, ROOT } from './markdown.ts';
import { bundledFacts, factValues, FACT } from './facts.ts';

const DOCS = docFiles();
const text = new Map(DOCS.map((f) => [f, readFileSync(f, 'utf8')]));

/** GitHub's anchor slugs of a Markdown file's headings (duplicates get -1, -2, …). */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of md.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]
      .trim()
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target of a file: [text](target) and ![alt](target), outside code. */
function links(md: string): string[] {
  return [...prose(md).matchAll(/!?\[(?:[^\]\n]|\][^(])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

describe('the docs', () => {
  it('README.md is at most 250 lines', () => {
    expect(text.get(join(ROOT, 'README.md'))!.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('every relative link and anchor resolves', () => {
    const broken: string[] = [];
    for (const [f, md] of text) {
      for (const target of links(md)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, anchor] = target.split('#');
        const file = path === '' ? f : resolve(dirname(f), decodeURIComponent(path));
        if (!existsSync(file)) {
          broken.push(`${rel(f)}: ${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md')) {
          const md2 = text.get(file) ?? readFileSync(file, 'utf8');
          if (!anchors(md2).has(anchor)) broken.push(`${rel(f)}: ${target} (no heading #${anchor} in ${rel(file)})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every file a doc names in code (`dir/file.ts`) is a file of the repository', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    /** Names that are not files of the repository, on purpose: a command's output, another project's file, URL paths, what a design page says was replaced. */
    const NOT_FILES = [/^test-results\//, /^tools\/hash\.sh$/, /^\//, /^(live\/liveApi|live\/writeApi|migration\/migrationApi|search\/docLookup)\.ts$/];
    const missing: string[] = [];
    for (const [f, md] of text) {
      for (const m of withoutFences(md).matchAll(/`([\w.{}\/-]+\/[\w.-]+\.(?:ts|tsx|mjs|json|md|csv|css|sh|html))`/g)) {
        const name = m[1];
        if (NOT_FILES.some((r) => r.test(name))) continue;
        if (!tracked.some((t) => t === name || t.endsWith(`/${name}`))) missing.push(`${rel(f)}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every doc is reachable from the README', () => {
    const reached = new Set<string>();
    const queue = [join(ROOT, 'README.md')];
    while (queue.length > 0) {
      const f = queue.pop()!;
      if (reached.has(f)) continue;
      reached.add(f);
      for (const target of links(text.get(f) ?? '')) {
        if (/^[a-z]+:/i.test(target)) continue;
        const path = target.split('#')[0];
        if (!path) continue;
        const file = resolve(dirname(f), decodeURIComponent(path));
        const md = file.endsWith('/') || (existsSync(file) && statSync(file).isDirectory()) ? join(file, 'README.md') : file;
        if (text.has(md)) queue.push(md);
      }
    }
    expect(DOCS.filter((f) => !reached.has(f)).map(rel)).toEqual([]);
  });
});

/** Shell-like words of a command line: quotes, and an end at a comment, pipe, redirection or &&. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let any = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (/\s/.test(c)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else if (c === '#' && !cur || c === '|' || c === ';' || c === '>' || (c === '&' && line[i + 1] === '&')) break;
    else cur += c;
  }
  if (cur || any) out.push(cur);
  return out;
}

/** Every `geoshard …` command line in the docs: every command block's, and inline code in the prose; with its file. */
function commandLines(): { file: string; line: string; inline?: boolean }[] {
  const out: { file: string; line: string; inline?: boolean }[] = [];
  for (const [f, md] of text) {
    if (GENERATED_DOCS.includes(rel(f))) continue;
    for (const block of commandBlocks(md)) {
      for (const raw of block.commands) {
        const line = raw.replace(/^(\$\s+|-\s+run:\s+)/, '').replace(/^([A-Z_]+=\S+\s+)+/, '');
        // A synopsis ([--flag …]) shows the options, not a command.
        if (/^(npx\s+)?geoshard\s/.test(line) && !/\[--|…|\.\.\./.test(line)) out.push({ file: rel(f), line });
      }
    }
    // Inline code in the prose, unless it is a synopsis with optional parts ([--flag …]) or an ellipsis.
    for (const line of withoutFences(md).split('\n')) {
      // Lines that show an old or a wrong form on purpose, or a placeholder command.
      if (/positional forms|old form|did you mean|\bCMD\b/.test(line)) continue;
      for (const m of line.matchAll(/`((?:npx )?geoshard [^`\n]+)`/g)) {
        // Not a synopsis ([--flag …]), an ellipsis, or a message quoted from the CLI (`geoshard diff: …`).
        if (!/[[…]|\.\.\.|^(npx )?geoshard [\w-]+:/.test(m[1])) out.push({ file: rel(f), line: m[1], inline: true });
      }
    }
  }
  return out;
}

describe('geoshard command lines in the docs', () => {
  let specs: Map<string, ParseSpec>;
  beforeAll(async () => {
    specs = new Map();
    for (const c of await loadCommands()) specs.set(c.name, await describeOptions(c.run));
  });

  it('are accepted by the CLI parser, in the current form', () => {
    const lines = commandLines();
    expect(lines.length).toBeGreaterThan(20);
    const rejected: string[] = [];
    for (const { file, line, inline } of lines) {
      const argv = words(line).slice(line.startsWith('npx') ? 2 : 1);
      const [name, ...rest] = argv;
      if (name === 'help' || name === '--version' || name === '-V' || name === '--help') continue;
      const spec = specs.get(name);
      if (!spec) {
        rejected.push(`${file}: ${line} (no command "${name}")`);
        continue;
      }
      let notice = '';
      setNoticeSink((t) => (notice += t));
      try {
        parse(rest, spec.options, name, spec.allowPositionals, spec.legacy);
        if (notice) rejected.push(`${file}: ${line} (an old form: ${notice.trim()})`);
      } catch (e) {
        const message = (e as Error).message.split('\n')[0];
        // Prose may name an option without its value (`geoshard cells --from-index`).
        if (!(inline && /argument missing/.test(message))) rejected.push(`${file}: ${line} (${message})`);
      } finally {
        setNoticeSink((t) => void process.stderr.write(t));
      }
    }
    expect(rejected).toEqual([]);
  });
});

describe('facts', () => {
  const file = JSON.parse(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8')) as { numberOfShards: number; index: string; shards: { name: string }[] };
  const values = factValues();

  it('marked facts are what their sources say (npm run docs:reference writes them)', () => {
    const wrong: string[] = [];
    let count = 0;
    for (const [f, md] of text) {
      for (const m of prose(md).matchAll(FACT)) {
        count++;
        const expected = values[m[1]];
        if (expected === undefined) wrong.push(`${rel(f)}: unknown fact "${m[1]}" (no run or figure of that name in bench/results.json, nor a fact of src/docs/facts.ts bundledFacts)`);
        else if (m[2] !== expected) wrong.push(`${rel(f)}: ${m[1]} is "${m[2]}", its source says "${expected}" (npm run docs:reference)`);
      }
    }
    expect(wrong).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(5);
  });

  it('the bundled facts include the package\'s entries and export counts', () => {
    const f = bundledFacts();
    expect(f.packageEntries).toBe('three');
    expect(Number(f.apiExportsCore)).toBeGreaterThan(0);
  });

  it('routing strings of the bundled index name its shards; "N shards" said of the bundled file is its count', () => {
    const names = new Set(file.shards.map((s) => s.name));
    const wrong: string[] = [];
    for (const [f, md] of text) {
      for (const line of md.split('\n')) {
        if (/places|CANDIDATE|candidate|split|merge|\/tmp\//.test(line)) continue;
        for (const m of line.matchAll(/routing=([a-z][\w.,-]*)/g)) {
          for (const name of m[1].split(',')) if (name && !names.has(name) && name !== 'name') wrong.push(`${rel(f)}: routing=${m[1]} ("${name}" is not a shard of data/boundaries.json)`);
        }
        if (/bundled|data\/boundaries\.json/.test(line)) {
          for (const m of line.matchAll(/\ball (\d+) shards\b|"numberOfShards": (\d+)/g)) {
            const k = m[1] ?? m[2];
            if (Number(k) !== file.numberOfShards) wrong.push(`${rel(f)}: "${m[0]}" beside the bundled file, which has ${file.numberOfShards}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
