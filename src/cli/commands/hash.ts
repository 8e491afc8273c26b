import { computeHash, validateBoundaryFile, formatBoundaryFile, type BoundaryFile } from '../../core/index.ts';
import { parse } from '../args.ts';
import { readText, writeFileAtomic, CliError } from '../io.ts';
import type { Command } from '../command.ts';

export const hash: Command = {
  name: 'hash',
  summary: "print (or, after a hand edit, write) a boundary file's content hash",
  usage: `geoshard hash FILE [--write]

Prints the sha256 of the file's canonical content (all fields but "hash", keys sorted,
no white space). With --write, stores it in the file's "hash" field, and nothing else,
once every other check passes; the file is replaced atomically.`,
  run(argv, io) {
    const { values, positionals } = parse(argv, { write: { type: 'boolean' } }, 'hash', true);
    if (positionals.length !== 1) throw new CliError('geoshard hash: give exactly one FILE\nRun "geoshard hash --help" for usage.', 2);
    const path = positionals[0];
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(readText(path, 'boundary file'));
    } catch (e) {
      if (e instanceof CliError) throw e;
      throw new CliError(`${path}: not JSON: ${(e as Error).message}`);
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new CliError(`${path}: expected a JSON object`);
    const h = computeHash(obj);
    if (!values.write) {
      io.out(`${h}\n`);
      return 0;
    }
    const next = { ...obj, hash: h };
    const errors = validateBoundaryFile(next);
    if (errors.length > 0) {
      io.err(`${path}: not written: ${errors.length} problem${errors.length === 1 ? '' : 's'} besides the hash:\n`);
      for (const e of errors) io.err(`  ${e.message}\n`);
      return 1;
    }
    // Replace only the hash value, so the edit stays exactly as the user made it.
    const text = readText(path, 'boundary file');
    const re = /("hash"\s*:\s*)("[^"]*"|null)/;
    const topLevelHash = (JSON.parse(text.replace(re, `$1"${h}"`)) as { hash?: unknown }).hash === h;
    writeFileAtomic(path, topLevelHash ? text.replace(re, `$1"${h}"`) : formatBoundaryFile(next as unknown as BoundaryFile));
    io.out(`${h}\n`);
    return 0;
  },
};
