/**
 * Candidates for migration tests and measurements: the bundled file with
 * some boundaries moved so that a known number of the sample's restaurants
 * change shard. Used by the migration live test, its e2e spec and the bench.
 */
import { cellFromOrdinal, cellOrdinal, cellToken, ordinalAt, parseToken, withHash, type BoundaryFile } from '../core/index.ts';
import { sampleOf } from '../data/sample.ts';

/**
 * movedCandidate returns `base` (version + 1, parent = base) with each
 * boundary `boundaries[i]` (i in `which`) moved back onto the cell of the
 * `perBoundary`-th last sample restaurant before it: that restaurant and the
 * ones after it up to the old boundary move from shard i - 1 to shard i (more
 * when several share its cell). `restaurants` is the seeded sample size.
 */
export function movedCandidate(base: BoundaryFile, restaurants: number, which: readonly number[], perBoundary: number): BoundaryFile {
  return movedCandidateOf(
    base,
    sampleOf(restaurants).map((r) => ordinalAt(r.lat, r.lng)),
    which,
    perBoundary,
  );
}

/**
 * movedCandidateOf is movedCandidate for any documents: `ordinals` are the
 * level-10 curve ordinals of the index's documents (any order), and each
 * boundary in `which` moves back onto the `perBoundary`-th last of them
 * before it.
 */
export function movedCandidateOf(base: BoundaryFile, ordinals: readonly number[], which: readonly number[], perBoundary: number): BoundaryFile {
  const ords = [...ordinals].sort((a, b) => a - b);
  const boundaries = [...base.boundaries];
  for (const i of which) {
    const lo = i === 0 ? 0 : cellOrdinal(parseToken(base.boundaries[i - 1]));
    const hi = cellOrdinal(parseToken(base.boundaries[i]));
    const inside = ords.filter((o) => o > lo && o < hi);
    if (inside.length <= perBoundary) throw new RangeError(`movedCandidate: shard ${i - 1} holds only ${inside.length} documents before boundaries[${i}]`);
    boundaries[i] = cellToken(cellFromOrdinal(inside[inside.length - perBoundary]));
  }
  const { hash: _h, ...rest } = base;
  return withHash({ ...rest, version: base.version + 1, parent: base.hash, boundaries });
}
