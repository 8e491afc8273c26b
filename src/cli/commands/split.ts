import { parse, timestamp } from '../args.ts';
import { loadBoundaryFile, loadCells, writeBoundaryFile, resolveTarget, DEFAULT_CELLS, DEFAULT_BOUNDARIES, CliError } from '../io.ts';
import type { Command } from '../command.ts';
import { editReport } from './merge.ts';
import { splitShard } from '../../core/edit.ts';

export const split: Command = {
  name: 'split',
  summary: 'split a hot shard in two at its weighted median (a new file, one more shard)',
  usage: `geoshard split [--boundaries FILE] SHARD [--cells FILE] [--out FILE] [--created-at T] [--json]

Cuts the named shard between two of its non-empty cells so that the heavier half is as light
as possible (weight = restaurants + dishes), and makes a new boundary file: version + 1,
parent = FILE's hash, one more shard. Names are kept where they still route to a free shard
number under the new count (the heavier half keeps the split shard's name); the others get
new names. The shard count changes, so shipping the file means a new index and a reindex of
every document: the output says so; geoshard diff and geoshard plan show the cost.

  --boundaries FILE  boundary file (default data/boundaries.json); the old form FILE SHARD
                  still works for this release, with a notice
  --cells FILE    cells file (default data/cells.csv)
  --out FILE      write the new boundary file here, atomically (default: report only)
  --created-at T  createdAt of the new file, ISO-8601 such as 2026-11-30T00:00:00.000Z (default now)
  --json          print { at, left, right, renamed, consequence, hash, file }`,
  run(argv, io) {
    const { values, positionals } = parse(argv, { boundaries: { type: 'string' }, cells: { type: 'string' }, out: { type: 'string' }, 'created-at': { type: 'string' }, json: { type: 'boolean' } }, 'split', true, { positional: ['boundaries'], keep: 1 });
    if (positionals.length !== 1) throw new CliError('geoshard split: give the SHARD name to split (and the file with --boundaries FILE)\nRun "geoshard split --help" for usage.', 2);
    const path = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const [name] = positionals;
    const createdAt = timestamp(values['created-at'], 'created-at', 'split');
    const outPath = values.out as string | undefined;
    if (outPath !== undefined) resolveTarget(outPath, 'boundary file');
    const file = loadBoundaryFile(path);
    const cells = loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS);
    const r = splitShard(file, cells, name, { createdAt });
    if (outPath !== undefined) writeBoundaryFile(outPath, r.file, 'split');
    if (values.json) {
      io.out(JSON.stringify({ at: r.at, left: r.left, right: r.right, renamed: r.renamed, shardsBefore: r.shardsBefore, shardsAfter: r.shardsAfter, consequence: r.consequence, hash: r.file.hash, ...(values.out ? { out: values.out } : { file: r.file }) }, null, 2) + '\n');
      return 0;
    }
    const doc = (h: { restaurants: number; dishes: number }) => `${(h.restaurants + h.dishes).toLocaleString('en-US')} documents`;
    io.out(`split "${name}" at ${r.at}: ${r.left.name} (${doc(r.left)}) | ${r.right.name} (${doc(r.right)})\n`);
    io.out(editReport(r, values.out as string | undefined));
    return 0;
  },
};
