/**
 * Reading a boundary file's text: the size limit (MAX_BOUNDARY_FILE_BYTES, checked before the
 * text is parsed), a scan of the raw JSON that refuses nesting deeper than MAX_NESTING_DEPTH,
 * objects wider than MAX_OBJECT_FIELDS and a key given twice (JSON.parse would keep the last one
 * silently), then JSON.parse and the validation of boundaries.ts. parseBoundaryFile returns a
 * valid file or throws one BoundaryFileError naming the source and every problem;
 * readBoundaryJson stops before the validation (for `geoshard validate` and `hash`, which report
 * the problems themselves).
 */
import { MAX_SHARDS } from './routingHash.ts';
import { fieldPath } from './fields.ts';
import { BoundaryFileError, assertValidBoundaryFile, MAX_BOUNDARY_FILE_BYTES, MAX_OBJECT_FIELDS, MAX_NESTING_DEPTH, type BoundaryFile } from './boundaries.ts';

/** utf8Length returns the number of bytes of `text` in UTF-8 (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 code units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * checkBoundaryFileSize throws a BoundaryFileError naming the source, its size
 * and the limit when `bytes` (a file's size in bytes) is over
 * MAX_BOUNDARY_FILE_BYTES. Readers that know a file's size before reading it
 * (a stat, a Content-Length) call it first; parseBoundaryFile applies it to
 * the text it is given.
 */
export function checkBoundaryFileSize(bytes: number, source = 'boundary file'): void {
  if (bytes > MAX_BOUNDARY_FILE_BYTES) throw tooLarge(`${bytes} bytes (${mib(bytes)})`, source);
}

const tooLarge = (size: string, source: string): BoundaryFileError =>
  new BoundaryFileError(
    [
      {
        field: '(file)',
        message: `(file): ${size} is over the limit of ${MAX_BOUNDARY_FILE_BYTES} bytes (${mib(MAX_BOUNDARY_FILE_BYTES)}) for a boundary file: one of ${MAX_SHARDS} shards with a migration is about 310 kB, so this is not a boundary file`,
      },
    ],
    source,
  );

/** What scanText found: where nesting first went too deep, and the first key repeated in one object. */
interface TextScan {
  /** Index of the "[" or "{" opening nesting level MAX_NESTING_DEPTH + 1, or -1. */
  deepAt: number;
  /** The path of the first key that appears twice in one object, and its index; null if none. */
  duplicate: { field: string; at: number } | null;
  /** The path of the first object with more than MAX_OBJECT_FIELDS keys, and the index of the key over it; null if none. */
  wide: { field: string; at: number } | null;
}

/**
 * scanText walks JSON text once, without recursion, counting brackets outside
 * strings (so JSON.parse is never given millions of nested values) and
 * stopping at the first key that appears twice in one object (JSON.parse
 * would keep only the last, so the file would not mean what a reader sees)
 * or at the first object with more than MAX_OBJECT_FIELDS keys. On text
 * that is not JSON it still reports only what the text shows (a key
 * repeated, brackets too deep); JSON.parse reports the syntax error.
 */
function scanText(text: string): TextScan {
  type Frame = { arr: true; index: number } | { arr: false; keys: Set<string>; key: string; expectKey: boolean };
  const frames: Frame[] = [];
  let duplicate: TextScan['duplicate'] = null;
  const pathTo = (key: string | null): string => {
    let path = '';
    for (const f of frames.slice(0, -1)) path = f.arr ? `${path}[${f.index}]` : fieldPath(path, f.key);
    return key === null ? path || '(file)' : fieldPath(path, key);
  };
  let start = -1; // index of the opening quote of the string being read
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (start >= 0) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) {
        const top = frames[frames.length - 1];
        if (top && !top.arr && top.expectKey) {
          let key = text.slice(start + 1, i);
          if (key.includes('\\')) {
            try {
              key = JSON.parse(`"${key}"`) as string;
            } catch {
              // Not a JSON string: JSON.parse reports it.
            }
          }
          if (top.keys.has(key)) return { deepAt: -1, duplicate: { field: pathTo(key), at: start }, wide: null };
          top.keys.add(key);
          if (top.keys.size > MAX_OBJECT_FIELDS) return { deepAt: -1, duplicate: null, wide: { field: pathTo(null), at: start } };
          top.key = key;
          top.expectKey = false;
        }
        start = -1;
      }
    } else if (c === 0x22) start = i;
    else if (c === 0x5b || c === 0x7b) {
      if (frames.length >= MAX_NESTING_DEPTH) return { deepAt: i, duplicate: null, wide: null };
      frames.push(c === 0x5b ? { arr: true, index: 0 } : { arr: false, keys: new Set(), key: '', expectKey: true });
    } else if (c === 0x5d || c === 0x7d) frames.pop();
    else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.arr) top.index++;
      else if (top) top.expectKey = true;
    }
  }
  return { deepAt: -1, duplicate: null, wide: null };
}

/**
 * parseBoundaryFile parses JSON text and validates it; throws a
 * BoundaryFileError naming `source` (a file name or URL, for messages) and
 * every problem (see validateBoundaryFile), or the JSON syntax problem. It is
 * the one way to read a boundary file's text: it refuses text over
 * MAX_BOUNDARY_FILE_BYTES (in UTF-8) before parsing, and nesting deeper than
 * MAX_NESTING_DEPTH, objects wider than MAX_OBJECT_FIELDS and a key repeated
 * in one object (naming its path) before JSON.parse, so no input overflows
 * the stack or takes seconds. A leading byte-order mark (U+FEFF) is accepted
 * and dropped, as a browser's fetch().text() drops it: it is not part of the
 * content or the hash.
 */
export function parseBoundaryFile(text: string, source = 'boundary file'): BoundaryFile {
  const obj = readBoundaryJson(text, source);
  assertValidBoundaryFile(obj, source);
  return obj;
}

/**
 * readBoundaryJson reads a boundary file's JSON text with every limit of
 * parseBoundaryFile (size, nesting, width, repeated keys, BOM) but does not
 * validate the content: what `geoshard validate` and `hash` need, since they
 * read files whose content is wrong. Throws a BoundaryFileError naming
 * `source`.
 */
export function readBoundaryJson(text: string, source = 'boundary file'): unknown {
  // text.length <= UTF-8 bytes <= 3 * text.length: count bytes only when it can matter.
  if (text.length > MAX_BOUNDARY_FILE_BYTES) throw tooLarge(`${text.length} characters (${mib(text.length)} or more in UTF-8)`, source);
  if (text.length * 3 > MAX_BOUNDARY_FILE_BYTES) checkBoundaryFileSize(utf8Length(text), source);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const scan = scanText(text);
  if (scan.deepAt >= 0) {
    const at = scan.deepAt;
    throw new BoundaryFileError([{ field: '(file)', message: `(file): nests arrays or objects more than ${MAX_NESTING_DEPTH} deep (line ${lineOf(at)}, character ${at + 1}): a boundary file's fields nest at most 3 deep` }], source);
  }
  if (scan.duplicate) {
    const { field, at } = scan.duplicate;
    throw new BoundaryFileError(
      [{ field, message: `${field}: appears twice in one object (the second time on line ${lineOf(at)}): JSON keeps only the last, so the file would not mean what it reads; keep one` }],
      source,
    );
  }
  if (scan.wide) {
    const { field, at } = scan.wide;
    throw new BoundaryFileError([{ field, message: `${field}: has more than ${MAX_OBJECT_FIELDS} fields (line ${lineOf(at)}): an object of a boundary file has at most ${MAX_OBJECT_FIELDS}` }], source);
  }
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new BoundaryFileError([{ field: '(file)', message: `(file): not JSON: ${(e as Error).message}` }], source);
  }
  return obj;
}
