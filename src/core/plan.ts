/**
 * Migration plans: the ordered, reviewable steps that take a live index from
 * its current boundary file to a candidate without a search counting a
 * document twice or missing one.
 *
 * When both files have the same layout (index, number of shards, routing
 * shards) each moving range goes, one range at a time (or all together), through
 *
 *     1 dual-write   publish a file whose migration lists the range in phase "dual-write";
 *                    once every writer runs it, new writes go to the old and the new owner
 *     2 copy         phase "copying": copy the range's existing documents (a join's
 *                    parents with their children) from the old owner to the new one
 *     3 verify       phase "verified": both owners hold the same counts for the range
 *     4 switch       phase "switched", a new epoch: searches read the range from the new
 *                    owner; writes still go to both (the old copy is the rollback)
 *     5 stop dual    phase "done": writes go to the new owner only
 *        writes
 *     6 delete       delete the range's documents from the old owner
 *
 * and a last step publishes the candidate itself, whose routing equals the
 * last intermediate file's. Every published file has the next epoch (the
 * current file is epoch 0); a step that changes routing waits until every
 * writer or searcher runs its epoch before the next one starts. The old owner
 * is the only reader of a range until the switch, the new owner after it, and
 * searches ignore the other owner's copy of the range (see migration.ts), so
 * each document is read from exactly one copy at every step.
 *
 * When the layout changes (another shard count, say) OpenSearch cannot move
 * documents in place: the plan is a reindex into a new index with the same
 * dual-write, copy, verify, switch, stop, delete order at the index level.
 *
 * Owners in plans are the CURRENT file's shard names (the router of an
 * intermediate file knows only those); a candidate name that differs for the
 * same OpenSearch shard is a rename, applied by the last step at no cost.
 */
import { withHash, type BoundaryFile } from './boundaries.ts';
import { Router } from './router.ts';
import { diffBoundaries, type BoundaryMove, type DiffFileSummary } from './diff.ts';
import type { Migration, MigrationMove, MigrationPhase } from './migration.ts';
import type { CellWeight } from './build.ts';

/** A range that moves between two OpenSearch shards of the same index. */
export interface PlanMove extends Omit<BoundaryMove, 'sameShard'> {
  /** 1-based number of the move in the plan. */
  n: number;
  /**
   * The new owner's name in the candidate. `to` (with `toShard`) is its name in the current file,
   * the routing value used during the move; the two differ only when the candidate renames that shard.
   */
  candidateTo: string;
}

/** What a step does. */
export type PlanAction = 'create-index' | 'dual-write' | 'copy' | 'verify' | 'switch' | 'stop-dual-write' | 'delete' | 'publish';

/** One step of a plan. */
export interface PlanStep {
  /** 1-based position in the plan. */
  step: number;
  action: PlanAction;
  /** The epoch in force during the step (0 = the current file before anything is published). */
  epoch: number;
  /** True when the step starts by publishing a new boundary file (with this epoch). */
  publishes: boolean;
  /** Plan moves (their n) the step concerns; every move for a reindex. */
  moves: number[];
  /** One line for a table of steps. */
  title: string;
  /** What the operator does. */
  detail: string;
  /** What writers do during the step. */
  writes: string;
  /** What searches do during the step. */
  searches: string;
  /** What must be true before the next step starts, or null. */
  waitFor: string | null;
  /** Which file is in force: the current one, an intermediate one (current + `migration`), or the candidate. */
  file: 'current' | 'intermediate' | 'candidate';
  /** The migration field of the intermediate file in force, or null. */
  migration: Migration | null;
}

/** A migration plan from a current to a candidate boundary file. */
export interface MigrationPlan {
  /** none: same routing; in-place: ranges move between shards of the index; reindex: a new index. */
  kind: 'none' | 'in-place' | 'reindex';
  current: DiffFileSummary;
  candidate: DiffFileSummary;
  /** Why a new index is needed (kind reindex), else null. */
  reindex: string | null;
  /** Ranges that move between OpenSearch shards (in-place), ascending; for a reindex, the ranges whose named owner changes. */
  moves: PlanMove[];
  /** Same layout: OpenSearch shards whose name changes, applied by the last step; no document moves. */
  renames: { shard: number; from: string; to: string }[];
  /** Documents that move: in-place, the moves; reindex, every document. */
  totals: { restaurants: number; dishes: number; documents: number; share: number };
  steps: PlanStep[];
}

/** Options for plan(). */
export interface PlanOptions {
  /** Move all ranges through each phase together (fewer steps, more copies at once) instead of one range at a time. Default false. */
  together?: boolean;
}

/**
 * withMigration returns the intermediate file of a migration: the base file
 * with its `migration` field set (base = the base file's hash) and a new hash.
 * The result is validated by the Router; this only builds it.
 */
export function withMigration(base: BoundaryFile, migration: Omit<Migration, 'base'>): BoundaryFile {
  const { hash: _hash, migration: _old, ...rest } = base;
  return withHash({ ...rest, migration: { epoch: migration.epoch, base: base.hash, target: migration.target, moves: migration.moves } });
}

/** stepFile returns the boundary file in force during a step of a plan made from these two files. */
export function stepFile(current: BoundaryFile, candidate: BoundaryFile, step: PlanStep): BoundaryFile {
  if (step.file === 'current') return current;
  if (step.file === 'candidate') return candidate;
  return withMigration(current, step.migration!);
}

const range = (m: PlanMove) => `[${m.start}, ${m.end ?? 'end'})`;
const fmt = (x: number) => x.toLocaleString('en-US');

/**
 * countsText says how many documents a set of ranges holds, by the cells file's columns: the
 * sample's restaurants and dishes, or, for a cells file of one `docs` column (any other index,
 * read into `restaurants`, with no dishes), its documents.
 */
export function countsText(c: { restaurants: number; dishes: number }): string {
  return c.dishes === 0 ? `${fmt(c.restaurants)} documents` : `${fmt(c.restaurants)} restaurants and ${fmt(c.dishes)} dishes`;
}

/**
 * plan makes the migration plan from `current` to `candidate` over a cells
 * list (for the counts each verify step expects). Both files must be valid and
 * have no moves in progress (throws RangeError otherwise: finish a migration
 * before planning the next).
 */
export function plan(current: BoundaryFile, candidate: BoundaryFile, cells: readonly CellWeight[], opts: PlanOptions = {}): MigrationPlan {
  const a = new Router(current, 'current boundary file');
  const b = new Router(candidate, 'candidate boundary file');
  if (a.moves.length > 0) throw new RangeError(`current boundary file has ${a.moves.length} move(s) in progress (migration epoch ${current.migration!.epoch}): finish that migration by publishing its target before planning another`);
  if (b.moves.length > 0) throw new RangeError('candidate boundary file has a migration field: a candidate is the file a migration ends with, not an intermediate one');
  const d = diffBoundaries(a, b, cells);
  const base = { current: d.current, candidate: d.candidate, reindex: d.reindex };
  return d.sameLayout ? inPlace(a, b, d, base, opts) : reindexPlan(a, b, d, base);
}

/**
 * planMove makes step n of a plan from a range the diff found moving; `to` is
 * the name that receives it on the index (the current file's name of the new
 * owner's shard in place; the candidate's in a reindex).
 */
function planMove(n: number, m: BoundaryMove, to: string): PlanMove {
  const { from, fromShard, toShard, start, end, startOrdinal, endOrdinal, cells, restaurants, dishes, share } = m;
  return { n, from, fromShard, to, toShard, candidateTo: m.to, start, end, startOrdinal, endOrdinal, cells, restaurants, dishes, share };
}

function inPlace(a: Router, b: Router, d: ReturnType<typeof diffBoundaries>, base: Pick<MigrationPlan, 'current' | 'candidate' | 'reindex'>, opts: PlanOptions): MigrationPlan {
  const currentNameOfShard = new Map(a.shards.map((s) => [s.shard, s.name]));
  const renames = b.shards.filter((s) => currentNameOfShard.get(s.shard) !== s.name).map((s) => ({ shard: s.shard, from: currentNameOfShard.get(s.shard)!, to: s.name }));
  const moves: PlanMove[] = [];
  for (const m of d.moves) {
    if (m.sameShard) continue;
    const to = currentNameOfShard.get(m.toShard)!;
    const last = moves[moves.length - 1];
    if (last && last.endOrdinal === m.startOrdinal && last.from === m.from && last.to === to) {
      last.endOrdinal = m.endOrdinal;
      last.end = m.end;
      last.cells += m.cells;
      last.restaurants += m.restaurants;
      last.dishes += m.dishes;
      last.share += m.share;
      continue;
    }
    moves.push(planMove(moves.length + 1, m, to));
  }
  const totals = moves.reduce((t, m) => ({ restaurants: t.restaurants + m.restaurants, dishes: t.dishes + m.dishes, documents: 0, share: t.share + m.share }), { restaurants: 0, dishes: 0, documents: 0, share: 0 });
  totals.documents = totals.restaurants + totals.dishes;
  const steps: PlanStep[] = [];
  const target = b.file.hash;
  const publishCandidate = (epoch: number, file: PlanStep['file'], what: string): PlanStep => ({
    step: steps.length + 1,
    action: 'publish',
    epoch,
    publishes: true,
    moves: moves.map((m) => m.n),
    title: `Publish the candidate (version ${b.file.version}, hash ${target.slice(0, 12)})`,
    detail: what,
    writes: 'Every document is written once, with the routing the candidate gives.',
    searches: 'Searches route with the candidate and need no exclusions: no range has a second copy.',
    waitFor: null,
    file,
    migration: null,
  });

  if (moves.length === 0) {
    const same = a.file.hash === b.file.hash;
    if (!same) {
      steps.push(
        publishCandidate(
          1,
          'candidate',
          renames.length > 0
            ? `No document changes OpenSearch shard; ${renames.length} shard name(s) change (${renames.map((r) => `${r.from} → ${r.to}`).join(', ')}), which route to the same shards. Publish the candidate to every writer and searcher in any order.`
            : 'Routing is identical (only the file metadata differs). Publish the candidate to every writer and searcher in any order.',
        ),
      );
    }
    return { kind: 'none', ...base, moves, renames, totals, steps };
  }

  // phases[k] is move k's phase in the file in force; undefined = not started yet.
  const phases: (MigrationPhase | undefined)[] = moves.map(() => undefined);
  let epoch = 0;
  const migration = (): Migration => ({
    epoch,
    base: a.file.hash,
    target,
    moves: moves.flatMap((m, k): MigrationMove[] => (phases[k] ? [{ start: m.start, end: m.end, from: m.from, to: m.to, phase: phases[k]! }] : [])),
  });
  const groups = opts.together ? [moves] : moves.map((m) => [m]);
  for (const g of groups) {
    const ns = g.map((m) => m.n);
    const what = g.length === 1 ? `range ${range(g[0])} (${g[0].from} → ${g[0].to})` : `the ${g.length} ranges`;
    const list = g.length === 1 ? '' : `\n${g.map((m) => `  move ${m.n}: ${range(m)} ${m.from} → ${m.to}, ${countsText(m)}`).join('\n')}`;
    const counts = countsText({ restaurants: g.reduce((s, m) => s + m.restaurants, 0), dishes: g.reduce((s, m) => s + m.dishes, 0) });
    const olds = [...new Set(g.map((m) => m.from))].join(', ');
    const news = [...new Set(g.map((m) => m.to))].join(', ');
    const readOld = `Searches read ${what} from the old owner (${olds}) only, and ignore the new owner's copies of it (documents in the range with _routing ${news}), so a search asking both shards counts each document once. Other ranges are unchanged.`;
    const readNew = `Searches read ${what} from the new owner (${news}) and ignore the old owner's copies of it (documents in the range with _routing ${olds}). Other ranges are unchanged.`;
    const push = (s: Omit<PlanStep, 'step' | 'epoch' | 'file' | 'migration' | 'moves'>, phase: MigrationPhase | null) => {
      if (s.publishes) {
        epoch++;
        for (const m of g) phases[m.n - 1] = phase!;
      }
      steps.push({ step: steps.length + 1, epoch, moves: ns, file: 'intermediate', migration: migration(), ...s });
    };
    push(
      {
        action: 'dual-write',
        publishes: true,
        title: `Start dual writes for ${what}`,
        detail: `Publish epoch ${epoch + 1}: the migration lists ${what} in phase "dual-write".${list}`,
        writes: `A document in ${what} is written to both owners (${olds} and ${news}), each copy with its owner's name as routing; other documents as before.`,
        searches: readOld,
        waitFor: `Every writer runs epoch ${epoch + 1} or later (until then a write may reach the old owner only, and the copy would miss it).`,
      },
      'dual-write',
    );
    push(
      {
        action: 'copy',
        publishes: true,
        title: `Copy ${what} to ${news}`,
        detail: `Publish epoch ${epoch + 1} (phase "copying": routing unchanged). Copy the range's existing documents (a join's parents, then their children) from ${olds} to ${news}: read with routing ${olds} and the cell in the range, write with routing ${news} and op_type=create, so a newer document the dual writes already put there is kept.`,
        writes: `As in the previous step: both owners.`,
        searches: readOld,
        waitFor: 'The copy has finished.',
      },
      'copying',
    );
    push(
      {
        action: 'verify',
        publishes: true,
        title: `Verify the counts of ${what}`,
        detail: `Publish epoch ${epoch + 1} (phase "verified") once the counts match: compare the range's documents on both owners (routing ${olds}, routing ${news}); they must be equal, about ${counts} when the cells file was made, plus writes since. On a mismatch (a document deleted on the old owner while it was being copied, for example) repair and re-run the copy; do not switch.`,
        writes: 'As before: both owners.',
        searches: readOld,
        waitFor: 'Both owners hold the same counts for the range.',
      },
      'verified',
    );
    push(
      {
        action: 'switch',
        publishes: true,
        title: `Switch reads of ${what} to ${news} (epoch ${epoch + 1})`,
        detail: `Publish epoch ${epoch + 1}: phase "switched". Writes still go to both owners, so the old owner stays complete: rolling back is republishing epoch ${epoch}.`,
        writes: 'Both owners, as before.',
        searches: readNew,
        waitFor: `Every searcher runs epoch ${epoch + 1} or later (a searcher still on an older epoch reads the old owner, which is still complete).`,
      },
      'switched',
    );
    push(
      {
        action: 'stop-dual-write',
        publishes: true,
        title: `Stop dual writes for ${what}`,
        detail: `Publish epoch ${epoch + 1}: phase "done". From here the old owner's copy of the range is stale and rolling back needs the copy again.`,
        writes: `A document in ${what} is written to the new owner (${news}) only.`,
        searches: readNew,
        waitFor: `Every writer runs epoch ${epoch + 1} or later (a writer still dual-writing would put new copies on the old owner).`,
      },
      'done',
    );
    push(
      {
        action: 'delete',
        publishes: false,
        title: `Delete ${what} from ${olds}`,
        detail: `Delete the range's documents from the old owner (a join's children first; routing ${olds} and the cell in the range), then count: none may be left. Epoch ${epoch} stays in force.`,
        writes: `New owner (${news}) only.`,
        searches: readNew,
        waitFor: `The old owner holds no document of the range.`,
      },
      null,
    );
  }
  epoch++;
  steps.push(
    publishCandidate(
      epoch,
      'candidate',
      `Publish epoch ${epoch}: the candidate itself (no migration field). Its routing equals epoch ${epoch - 1}'s for reads and writes${renames.length > 0 ? ` (shard names ${renames.map((r) => `${r.from} → ${r.to}`).join(', ')} change but route to the same shards)` : ''}, so writers and searchers can take it in any order; searches stop ignoring copies, which is safe because every old copy is deleted.`,
    ),
  );
  return { kind: 'in-place', ...base, moves, renames, totals, steps };
}

function reindexPlan(a: Router, b: Router, d: ReturnType<typeof diffBoundaries>, base: Pick<MigrationPlan, 'current' | 'candidate' | 'reindex'>): MigrationPlan {
  const moves: PlanMove[] = d.moves.map((m, k) => planMove(k + 1, m, m.to));
  const all = d.all;
  const totals = { restaurants: all.restaurants, dishes: all.dishes, documents: all.documents, share: all.documents > 0 ? 1 : 0 };
  const cur = a.file;
  const cand = b.file;
  const newIndex = cand.index === cur.index ? `${cand.index}-${cand.hash.slice(0, 8)}` : cand.index;
  const aliasNote =
    cand.index === cur.index
      ? ` Both files name the index "${cur.index}": create the new one as "${newIndex}" (any unused name) and serve "${cur.index}" as an alias, moved at the switch.`
      : '';
  const ns = moves.map((m) => m.n);
  const counts = countsText(all);
  const oldReads = `Searches use the old index "${cur.index}" with the current file's routing (${cur.numberOfShards} shards); the new index is not searched.`;
  const newReads = `Searches use the new index with the candidate's routing (${cand.numberOfShards} shards); the old index is not searched.`;
  const routingShards = cand.routingNumShards !== undefined ? ` and number_of_routing_shards ${cand.routingNumShards}` : '';
  const raw: Omit<PlanStep, 'step' | 'moves' | 'migration'>[] = [
    {
      action: 'create-index',
      epoch: 0,
      publishes: false,
      title: `Create the new index with ${cand.numberOfShards} primary shards`,
      detail: `${d.reindex}. Create the new index with number_of_shards ${cand.numberOfShards}${routingShards} and the same mappings (including a join field).${aliasNote}`,
      writes: `Unchanged: the old index with the current file's routing.`,
      searches: oldReads,
      waitFor: 'The new index exists and is green.',
      file: 'current',
    },
    {
      action: 'dual-write',
      epoch: 1,
      publishes: true,
      title: 'Start dual writes to both indexes',
      detail: 'Publish epoch 1: writers load both files. Every write goes to the old index with the current routing and to the new index with the candidate routing.',
      writes: 'Both indexes, each with its own file: Router(current).writeShards and Router(candidate).writeShards.',
      searches: oldReads,
      waitFor: 'Every writer runs epoch 1 or later.',
      file: 'current',
    },
    {
      action: 'copy',
      epoch: 1,
      publishes: false,
      title: `Copy every document (${counts}) into the new index`,
      detail: `Reindex all restaurants with their dishes into the new index, each with the candidate's routing for its restaurant's location, op_type=create so newer dual-written documents are kept.`,
      writes: 'Both indexes.',
      searches: oldReads,
      waitFor: 'The copy has finished.',
      file: 'current',
    },
    {
      action: 'verify',
      epoch: 1,
      publishes: false,
      title: 'Verify counts per shard of the new index',
      detail: `Count restaurants and dishes in both indexes (about ${counts} when the cells file was made, plus writes since) and per shard of the new index against the candidate's shards (${cand.shards.map((s) => `${s.name} ${fmt((s.restaurants ?? 0) + (s.dishes ?? 0))}`).slice(0, 6).join(', ')}${cand.shards.length > 6 ? ', …' : ''} documents when it was made). On a mismatch repair and re-run the copy; do not switch.`,
      writes: 'Both indexes.',
      searches: oldReads,
      waitFor: 'Counts match.',
      file: 'current',
    },
    {
      action: 'switch',
      epoch: 2,
      publishes: true,
      title: 'Switch searches to the new index (epoch 2)',
      detail: `Publish epoch 2: searchers use the candidate and the new index${cand.index === cur.index ? ` (move the alias "${cur.index}")` : ''}. Writes still go to both indexes, so rolling back is republishing epoch 1.`,
      writes: 'Both indexes.',
      searches: newReads,
      waitFor: 'Every searcher runs epoch 2 or later.',
      file: 'candidate',
    },
    {
      action: 'stop-dual-write',
      epoch: 3,
      publishes: true,
      title: 'Stop writing to the old index',
      detail: 'Publish epoch 3: writers use the candidate only.',
      writes: 'The new index only, with the candidate routing.',
      searches: newReads,
      waitFor: 'Every writer runs epoch 3 or later.',
      file: 'candidate',
    },
    {
      action: 'delete',
      epoch: 3,
      publishes: false,
      title: `Delete the old index`,
      detail: `Delete the old index (${cur.numberOfShards} shards). The candidate is now the only boundary file.`,
      writes: 'The new index only.',
      searches: newReads,
      waitFor: null,
      file: 'candidate',
    },
  ];
  const steps = raw.map((s, k) => ({ ...s, step: k + 1, moves: ns, migration: null }));
  return { kind: 'reindex', ...base, moves, renames: [], totals, steps };
}
