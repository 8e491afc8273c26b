import { validateBoundaryFile, BoundaryFileError, formatBoundaryFile, type BoundaryFile } from '../../core/index.ts';
import { canonicalContent } from '../../core/boundaries.ts';
import { readBoundaryJson } from '../../core/boundaryText.ts';
import { parse } from '../args.ts';
import { readText, naming, writeFileAtomic, problemLines, problemCount, CliError, DEFAULT_BOUNDARIES } from '../io.ts';
import type { Command } from '../command.ts';
import { computeHash, checkBoundaryFile } from '../../core/boundaries.ts';

const JSON_SPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * topLevelMembers lists the members of the top-level object of a JSON text:
 * each key and the [start, end) offsets of its value in the text. The text
 * must be JSON that JSON.parse accepts; this only follows strings (with their
 * escapes) and nesting to find where each top-level value begins and ends.
 */
export function topLevelMembers(text: string): { key: string; start: number; end: number }[] {
  const out: { key: string; start: number; end: number }[] = [];
  let depth = 0;
  let expectKey = false;
  let key: string | null = null;
  let start = -1;
  const close = (at: number) => {
    if (key === null) return;
    let end = at;
    while (end > start && JSON_SPACE.has(text[end - 1])) end--;
    out.push({ key, start, end });
    key = null;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const from = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 1 && expectKey) {
        key = JSON.parse(text.slice(from, i + 1)) as string;
        expectKey = false;
      }
    } else if (c === '{' || c === '[') {
      if (depth === 0 && c === '{') expectKey = true;
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 1) close(i);
      depth--;
    } else if (depth === 1 && c === ',') {
      close(i);
      expectKey = true;
    } else if (depth === 1 && c === ':') {
      start = i + 1;
      while (JSON_SPACE.has(text[start])) start++;
    }
  }
  return out;
}

export const hash: Command = {
  name: 'hash',
  summary: "print (or, after a hand edit, write) a boundary file's content hash",
  usage: `geoshard hash [--boundaries FILE] [--write] [--json]

Prints the sha256 of the file's canonical content (all fields but "hash", keys sorted,
no white space). With --write, stores it in the file's "hash" field, and nothing else,
once every other check passes: only the value of the top-level "hash" changes, the rest
of the file is kept byte for byte; the file is replaced atomically, through a symbolic link
to its target, keeping its permissions.

  --boundaries FILE  boundary file (default data/boundaries.json); the old positional FILE
                     still works for this release, with a notice
  --write            store the hash in the file
  --json             print { "file", "hash", "written" }`,
  run(argv, io) {
    const { values } = parse(argv, { boundaries: { type: 'string' }, write: { type: 'boolean' }, json: { type: 'boolean' } }, 'hash', false, { positional: ['boundaries'] });
    const path = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const print = (h: string, written: boolean) => io.out(values.json ? JSON.stringify({ file: path, hash: h, written }) + '\n' : `${h}\n`);
    return naming(path, 'boundary file', () => {
      const text = readText(path, 'boundary file');
      let obj: Record<string, unknown>;
      try {
        obj = readBoundaryJson(text, path) as Record<string, unknown>;
      } catch (e) {
        if (e instanceof BoundaryFileError) throw new CliError(e.message);
        throw e;
      }
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new CliError(`${path}: expected a JSON object`);
      const h = computeHash(obj);
      if (!values.write) {
        print(h, false);
        return 0;
      }
      const next = { ...obj, hash: h };
      const { problems, total } = checkBoundaryFile(next);
      if (total > 0) {
        io.err(`${path}: not written: ${problemCount(total)} besides the hash:\n${problemLines(problems, total)}`);
        return 1;
      }
      const hashes = topLevelMembers(text).filter((m) => m.key === 'hash');
      let rewritten: string;
      if (hashes.length === 1) {
        // Replace only the value of the top-level hash, so the rest of the file stays byte for byte as the user made it.
        rewritten = text.slice(0, hashes[0].start) + JSON.stringify(h) + text.slice(hashes[0].end);
      } else {
        rewritten = formatBoundaryFile(next as unknown as BoundaryFile);
      }
      // The rewritten text must read back as the same content with the new hash; otherwise write nothing.
      let back: unknown;
      try {
        back = JSON.parse(rewritten);
      } catch {
        back = undefined;
      }
      const b = back as Record<string, unknown> | undefined;
      if (!b || b.hash !== h || canonicalContent(b) !== canonicalContent(obj) || validateBoundaryFile(b).length > 0) {
        throw new CliError(`${path}: not written: its layout cannot be kept while changing only the hash; run geoshard hash --boundaries ${path} and put the printed hash in the top-level "hash" field by hand`);
      }
      if (rewritten !== text) writeFileAtomic(path, rewritten, 'boundary file');
      if (hashes.length === 0) io.err(`${path}: had no top-level "hash" field: written in the standard layout\n`);
      print(h, rewritten !== text);
      return 0;
    });
  },
};
