import { join } from 'node:path';
import { plan as makePlan, formatBoundaryFile, type MigrationPlan } from '../../core/index.ts';
import { countsText } from '../../core/plan.ts';
import { parse } from '../args.ts';
import { loadBoundaryFile, loadCells, writeFileAtomic, refuseInvalid, checkFolderTarget, resolveTarget, DEFAULT_CELLS, CliError, DEFAULT_BOUNDARIES } from '../io.ts';
import type { Command } from '../command.ts';
import { stepFile } from '../../core/plan.ts';


/** planText renders a plan for people: what moves, then every step with its epoch, writes and searches. */
export function planText(p: MigrationPlan): string {
  let out = `plan: ${p.current.hash.slice(0, 12)} (v${p.current.version}, ${p.current.numberOfShards} shards) → ${p.candidate.hash.slice(0, 12)} (v${p.candidate.version}, ${p.candidate.numberOfShards} shards)\n`;
  if (p.kind === 'none') out += 'No document changes shard.\n';
  if (p.kind === 'reindex') out += `A new index: ${p.reindex}.\n`;
  if (p.kind === 'in-place') {
    out += `${p.moves.length} range${p.moves.length === 1 ? '' : 's'} move between shards of the index: ${countsText(p.totals)} (${(100 * p.totals.share).toFixed(2)}% of documents).\n`;
    for (const m of p.moves) out += `  move ${m.n}: [${m.start}, ${m.end ?? 'end'}) ${m.from} (shard ${m.fromShard}) → ${m.to} (shard ${m.toShard}): ${countsText(m)}\n`;
  }
  if (p.renames.length > 0) out += `Shard names that change (same OpenSearch shard, nothing moves): ${p.renames.map((r) => `${r.from} → ${r.to}`).join(', ')}\n`;
  out += '\n';
  for (const s of p.steps) {
    out += `${String(s.step).padStart(3)}. [epoch ${s.epoch}${s.publishes ? ', published' : ''}] ${s.title}\n`;
    const lines = [`do: ${s.detail}`, `writes: ${s.writes}`, `searches: ${s.searches}`, ...(s.waitFor ? [`before the next step: ${s.waitFor}`] : [])];
    for (const l of lines) out += l.split('\n').map((x, k) => `       ${k === 0 ? '' : '  '}${x}`).join('\n') + '\n';
  }
  if (p.steps.length === 0) out += 'Nothing to do: the two files are the same.\n';
  return out;
}

export const plan: Command = {
  name: 'plan',
  summary: 'the ordered migration plan from CURRENT to CANDIDATE on a live index',
  usage: `geoshard plan [--boundaries CURRENT] --candidate CANDIDATE [--cells FILE] [--together] [--json] [--out-dir DIR]

Prints an ordered, reviewable plan. When both files have the same index, shard count and
routing shards, each range that changes OpenSearch shard goes, one at a time, through: start
dual writes to the old and new owner; copy the range's documents (a join's parents with their
children) to the new owner; verify counts; switch reads with a new epoch; stop dual writes; delete from the
old owner. A last step publishes the candidate. Every step names the epoch in force, what
writers and searches do, and what must hold before the next step: the old owner is the only
reader of a range until the switch, and searches ignore the other owner's copy, so no
document is counted twice or missed. Otherwise the plan is a reindex into a new index.

  --boundaries CURRENT  the boundary file in use (default data/boundaries.json)
  --candidate FILE      the proposed boundary file (required); the old positional form
                        CURRENT CANDIDATE still works for this release, with a notice
  --cells FILE    cells file for the counts each verify step expects (default data/cells.csv)
  --together      move all ranges through each phase together (fewer steps)
  --json          print the plan as JSON (kind, moves, renames, totals, steps with migration fields)
  --out-dir DIR   also write the boundary file in force at every step that publishes one
                  (step-NNN-epoch-E.json, each written atomically), to test routers step by step`,
  run(argv, io) {
    const { values } = parse(argv, { boundaries: { type: 'string' }, candidate: { type: 'string' }, cells: { type: 'string' }, together: { type: 'boolean' }, json: { type: 'boolean' }, 'out-dir': { type: 'string' } }, 'plan', false, { positional: ['boundaries', 'candidate'] });
    if (values.candidate === undefined) throw new CliError('geoshard plan: --candidate FILE is required: the boundary file to compare with --boundaries (default data/boundaries.json)\nRun "geoshard plan --help" for usage.', 2);
    const currentPath = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const candidatePath = values.candidate as string;
    const outDir = values['out-dir'] as string | undefined;
    if (outDir !== undefined) {
      if (outDir === '') throw new CliError('geoshard plan: --out-dir is empty: give a folder', 2);
      checkFolderTarget(outDir, '--out-dir folder');
    }
    const current = loadBoundaryFile(currentPath);
    const candidate = loadBoundaryFile(candidatePath);
    const cells = loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS);
    const p = makePlan(current, candidate, cells, { together: !!values.together });
    const written: string[] = [];
    if (outDir !== undefined) {
      // Check every file and every target before writing the first, so a refusal writes nothing.
      const files = p.steps
        .filter((s) => s.publishes)
        .map((s) => ({ path: join(outDir, `step-${String(s.step).padStart(3, '0')}-epoch-${s.epoch}.json`), file: stepFile(current, candidate, s) }));
      for (const f of files) {
        refuseInvalid(f.file, f.path, 'plan');
        resolveTarget(f.path, 'boundary file');
      }
      for (const f of files) {
        try {
          writeFileAtomic(f.path, formatBoundaryFile(f.file), 'boundary file');
        } catch (e) {
          if (e instanceof CliError && written.length > 0) throw new CliError(`${e.message}\n(already written: ${written.join(', ')})`);
          throw e;
        }
        written.push(f.path);
      }
    }
    if (values.json) {
      io.out(JSON.stringify({ ...p, ...(outDir !== undefined ? { files: written } : {}) }, null, 2) + '\n');
      return 0;
    }
    io.out(planText(p));
    if (written.length > 0) io.out(`\nwrote ${written.length} boundary file${written.length === 1 ? '' : 's'} to ${outDir}\n`);
    return 0;
  },
};
