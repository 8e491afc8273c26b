import { parse, timestamp } from '../args.ts';
import { loadBoundaryFile, loadCells, writeBoundaryFile, resolveTarget, DEFAULT_CELLS, DEFAULT_BOUNDARIES, CliError } from '../io.ts';
import type { Command } from '../command.ts';
import { mergeShards, type EditResult } from '../../core/edit.ts';

/** editReport is the part of split's and merge's output they share: renames, the reindex consequence, what was written. */
export function editReport(r: EditResult, out: string | undefined): string {
  let s = '';
  if (r.renamed.length > 0) s += `renamed (their hash collides under ${r.shardsAfter} shards): ${r.renamed.map((x) => `${x.from} → ${x.to}`).join(', ')}\n`;
  s += `! ${r.consequence}\n`;
  s += out ? `wrote ${out} (version ${r.file.version}, parent ${r.file.parent!.slice(0, 12)}, hash ${r.file.hash})\n` : `not written: pass --out FILE to write the new boundary file\n`;
  return s;
}

export const merge: Command = {
  name: 'merge',
  summary: 'merge two neighbouring shards into one (a new file, one shard fewer)',
  usage: `geoshard merge [--boundaries FILE] SHARD_A SHARD_B [--cells FILE] [--out FILE] [--created-at T] [--json]

Merges two shards that are neighbours in key order into one, which keeps the name of the
heavier, and makes a new boundary file: version + 1, parent = FILE's hash, one shard fewer.
Other names are kept where they still route to a free shard number under the new count. The
shard count changes, so shipping the file means a new index and a reindex of every document:
the output says so; geoshard diff and geoshard plan show the cost.

  --boundaries FILE  boundary file (default data/boundaries.json); the old form
                  FILE SHARD_A SHARD_B still works for this release, with a notice
  --cells FILE    cells file (default data/cells.csv)
  --out FILE      write the new boundary file here, atomically (default: report only)
  --created-at T  createdAt of the new file, ISO-8601 such as 2026-11-30T00:00:00.000Z (default now)
  --json          print { name, removed, restaurants, dishes, renamed, consequence, hash, file }`,
  run(argv, io) {
    const { values, positionals } = parse(argv, { boundaries: { type: 'string' }, cells: { type: 'string' }, out: { type: 'string' }, 'created-at': { type: 'string' }, json: { type: 'boolean' } }, 'merge', true, { positional: ['boundaries'], keep: 2 });
    if (positionals.length !== 2) throw new CliError('geoshard merge: give the names of two neighbouring shards (and the file with --boundaries FILE)\nRun "geoshard merge --help" for usage.', 2);
    const path = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const [a, b] = positionals;
    const createdAt = timestamp(values['created-at'], 'created-at', 'merge');
    const outPath = values.out as string | undefined;
    if (outPath !== undefined) resolveTarget(outPath, 'boundary file');
    const file = loadBoundaryFile(path);
    const cells = loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS);
    const r = mergeShards(file, cells, a, b, { createdAt });
    if (outPath !== undefined) writeBoundaryFile(outPath, r.file, 'merge');
    if (values.json) {
      io.out(JSON.stringify({ name: r.name, removed: r.removed, restaurants: r.restaurants, dishes: r.dishes, renamed: r.renamed, shardsBefore: r.shardsBefore, shardsAfter: r.shardsAfter, consequence: r.consequence, hash: r.file.hash, ...(values.out ? { out: values.out } : { file: r.file }) }, null, 2) + '\n');
      return 0;
    }
    io.out(`merged "${a}" and "${b}" (boundary ${r.removed} removed) into ${r.name}: ${(r.restaurants + r.dishes).toLocaleString('en-US')} documents\n`);
    io.out(editReport(r, values.out as string | undefined));
    return 0;
  },
};
