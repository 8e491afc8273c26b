import { BoundaryFileError } from '../../core/index.ts';
import { readBoundaryJson } from '../../core/boundaryText.ts';
import { parse } from '../args.ts';
import { readText, naming, problemLines, problemCount, CliError, DEFAULT_BOUNDARIES, MAX_BOUNDARY_FILE_BYTES, MAX_LISTED_PROBLEMS } from '../io.ts';
import type { Command } from '../command.ts';
import { checkBoundaryFile } from '../../core/boundaries.ts';

export const validate: Command = {
  name: 'validate',
  summary: 'check a boundary file: prints ok, or every problem and exits 1',
  usage: `geoshard validate [--boundaries FILE] [--json]

Checks everything routing depends on: format, level, counts, that boundaries are canonical
level-10 tokens ascending in key order, unique names whose routing hash lands on their
declared shard, version, parent and the content hash. Prints "ok" and exits 0, or counts
the problems, lists the first ${MAX_LISTED_PROBLEMS} (field, value, what would be valid) and exits 1.
Files over ${MAX_BOUNDARY_FILE_BYTES / (1024 * 1024)} MiB are refused unread.

  --boundaries FILE  boundary file (default data/boundaries.json); the old positional FILE
                     still works for this release, with a notice
  --json             print { "file", "ok", "total", "problems": [{ "field", "value", "message" }] }`,
  run(argv, io) {
    const { values } = parse(argv, { boundaries: { type: 'string' }, json: { type: 'boolean' } }, 'validate', false, { positional: ['boundaries'] });
    const path = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const json = (ok: boolean, total: number, problems: readonly unknown[]) => io.out(JSON.stringify({ file: path, ok, total, problems }, null, 2) + '\n');
    const text = readText(path, 'boundary file');
    let obj: unknown;
    try {
      obj = readBoundaryJson(text, path);
    } catch (e) {
      if (!(e instanceof BoundaryFileError)) throw e;
      if (values.json) {
        json(false, e.total, e.errors.filter((x) => !/^and \d+ more problems?$/.test(x.message)));
        return 1;
      }
      io.err(`${path}: ${problemCount(e.total)}:\n${problemLines(e.errors.filter((x) => !/^and \d+ more problems?$/.test(x.message)), e.total)}`);
      return 1;
    }
    const { problems, total } = naming(path, 'boundary file', () => checkBoundaryFile(obj));
    if (values.json) {
      json(total === 0, total, problems);
      return total === 0 ? 0 : 1;
    }
    if (total === 0) {
      io.out('ok\n');
      return 0;
    }
    io.err(`${path}: ${problemCount(total)}:\n${problemLines(problems, total)}`);
    return 1;
  },
};
