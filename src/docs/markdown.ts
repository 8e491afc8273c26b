/**
 * The Markdown of the project's docs as the checks read it: which files are docs, their fenced
 * code blocks (with the mark on the line before each), their prose (the text outside code, with
 * inline code emptied and HTML comments kept), and their command blocks. Shared by the fact
 * filler (src/docs/facts.ts), the unit checks (src/docs/*.test.ts) and the live test that runs
 * the docs' commands (src/docs/docs.live.test.ts).
 *
 * The command blocks, and what each promises: a block a reader would paste into a shell is either
 * run by a test as printed, saying which (`<!-- run: src/docs/docs.live.test.ts -->` on the line
 * before its fence), or marked as an excerpt, saying why it is not run
 * (`<!-- excerpt: needs a cluster with the security plugin; run by src/server/security.secure.test.ts -->`).
 * A command block is a fence whose language is a shell's (sh, bash, shell, console, zsh), or a
 * fence of any other language (or none) holding a line a reader would type: one that starts,
 * after an optional `$ ` prompt, a CI step's `- run: ` and `NAME=value` assignments, with `npx`,
 * `npm`, `node` or `curl` and a space, or `geoshard COMMAND` (a message quoted from the CLI,
 * `geoshard cells: …`, is not one).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../cli/io.ts';

export { ROOT };

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.md')) out.push(p);
  }
  return out;
}

/** Every doc, as an absolute path: README.md, CHANGELOG.md and every .md file under docs/. */
export function docFiles(): string[] {
  return [join(ROOT, 'README.md'), join(ROOT, 'CHANGELOG.md'), ...walk(join(ROOT, 'docs'))];
}

/**
 * The docs made by code, not written: the references (`npm run docs:reference`, src/docs/reference.ts)
 * and the API reports (`npm run api:report`). Their synopses and defaults are the code's; the
 * checks of written prose (command blocks, figures, history) leave them to the tests of their
 * generators (src/docs/reference.test.ts, scripts/api-report.test.ts).
 */
export const GENERATED_DOCS = ['docs/reference/cli.md', 'docs/reference/environment.md', 'docs/api/geoshard.api.md', 'docs/api/geoshard-opensearch.api.md', 'docs/api/geoshard-ops.api.md'];

/** A doc's path relative to the repository (`docs/adopting.md`). */
export const rel = (file: string): string => relative(ROOT, file);

/** readDoc reads a doc by its repository path (`docs/demo.md`). */
export const readDoc = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The mark written on the line right before a fence: `<!-- run: FILE -->` or `<!-- excerpt: WHY -->`. */
export type BlockMark = { kind: 'run'; test: string } | { kind: 'excerpt'; reason: string };

/** A fenced code block of a doc. */
export interface Fence {
  /** 1-based line of the opening fence. */
  line: number;
  /** 1-based line of the closing fence. */
  end: number;
  /** The info string after the fence (`sh`, `json`, `` for none). */
  lang: string;
  /** The lines between the fences, with the fence's own indentation removed. */
  body: string;
  /** The mark on the last non-blank line before the fence, if it is one. */
  mark: BlockMark | null;
  /** The heading (## or deeper) the block is under, '' before the first. */
  heading: string;
}

const MARK = /^\s*<!--\s*(run|excerpt):\s*([\s\S]*?)\s*-->\s*$/;

/** fences lists the fenced code blocks of `md` (``` or ~~~, also indented inside list items), in order. */
export function fences(md: string): Fence[] {
  const lines = md.split('\n');
  const out: Fence[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{2,6} (.+)$/.exec(lines[i]);
    if (h) heading = h[1].trim();
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(lines[j])) j++;
    const body = lines
      .slice(i + 1, j)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join('\n');
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    const m = k >= 0 ? MARK.exec(lines[k]) : null;
    const mark: BlockMark | null = m ? (m[1] === 'run' ? { kind: 'run', test: m[2] } : { kind: 'excerpt', reason: m[2] }) : null;
    out.push({ line: i + 1, end: j + 1, lang, body, mark, heading });
    i = j;
  }
  return out;
}

/** withoutFences returns `md` with every fenced block's lines blanked to spaces (every offset and line number kept). */
export function withoutFences(md: string): string {
  const lines = md.split('\n');
  for (const f of fences(md)) for (let k = f.line - 1; k < f.end && k < lines.length; k++) lines[k] = ' '.repeat(lines[k].length);
  return lines.join('\n');
}

/**
 * prose returns the text outside fenced blocks with inline code blanked to spaces between its
 * backticks (links, marks and figures in code are not prose); every offset is kept.
 */
export function prose(md: string): string {
  // A code span may run over a line end, not over a blank line.
  return withoutFences(md).replace(/`([^`]*)`/g, (m, inner: string) => (/\n\s*\n/.test(inner) ? m : `\`${inner.replace(/[^\n]/g, ' ')}\``));
}

/** The languages of a fence that is a shell session whatever it holds. */
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

/** A line a reader would type. */
export const COMMAND_LINE = /^(?:\$\s+|-\s+run:\s+)?(?:[A-Z][A-Z0-9_]*=\S*\s+)*(?:(?:npx|npm|node|curl)\s|geoshard\s+[a-z][a-z-]*(?:\s|$))/;

/** A command block: a fence and its command lines (continuations joined, comments and blank lines left out). */
export interface CommandBlock extends Fence {
  commands: string[];
}

/** commandLines returns the lines of a shell text a reader would run, each `\`-continuation joined to its line. */
export function commandLines(body: string): string[] {
  return body
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** commandBlocks lists the command blocks of a doc's Markdown, in order. */
export function commandBlocks(md: string): CommandBlock[] {
  const out: CommandBlock[] = [];
  for (const f of fences(md)) {
    const lines = commandLines(f.body);
    if (SHELL_LANGS.has(f.lang) || lines.some((l) => COMMAND_LINE.test(l))) out.push({ ...f, commands: SHELL_LANGS.has(f.lang) ? lines : lines.filter((l) => COMMAND_LINE.test(l)) });
  }
  return out;
}

/**
 * indentedCommands lists the lines of a doc, outside fences, that are a command in a code block
 * made by indentation (four spaces after a blank line, outside a list): such a block carries no
 * mark, so a command must be fenced.
 */
export function indentedCommands(md: string): number[] {
  const fenced = new Set<number>();
  for (const f of fences(md)) for (let k = f.line; k <= f.end; k++) fenced.add(k);
  const lines = md.split('\n');
  const out: number[] = [];
  let inBlock = false;
  let inList = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (fenced.has(i + 1)) {
      inBlock = false;
      continue;
    }
    if (/^\s*([-*+]|\d+\.)\s/.test(l) && !/^ {4}/.test(l)) inList = true;
    else if (l.trim() === '') {
      // A blank line ends a list only when the next line is not indented into it.
      if (!/^\s+\S/.test(lines[i + 1] ?? '')) inList = false;
    } else if (!/^\s/.test(l)) inList = false;
    const startsBlock: boolean = /^ {4}\S/.test(l) && (inBlock || (lines[i - 1] ?? '').trim() === '') && !inList;
    inBlock = startsBlock || (inBlock && (l.trim() === '' || /^ {4}/.test(l)));
    if (inBlock && COMMAND_LINE.test(l.trim())) out.push(i + 1);
  }
  return out;
}
