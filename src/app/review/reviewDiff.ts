/**
 * The review's diff: what the driver (reviewDriver.ts) recomputes when the current file, the
 * candidate, the cells or the matching change. Its own module so that the core's diff loads
 * with the driver, after the first frame, not with the review slice.
 */
import { readyData } from '../shell/dataSlice';
import { diffBoundaries, type BoundaryDiff, type CellWeight, type ShardMatch } from '../../core/index';
import type { ReviewCandidate } from './reviewSlice';

/**
 * computeReviewDiff is what the driver runs when an input changes: the core's
 * diff of the current file and the candidate over the review cells, or null
 * while one of them is missing.
 */
export function computeReviewDiff(s: { data: Parameters<typeof readyData>[0]['data']; candidate: ReviewCandidate | null; reviewCells: CellWeight[] | null; reviewMatch: ShardMatch }): BoundaryDiff | null {
  const data = readyData(s);
  if (!data || !s.candidate || !s.reviewCells) return null;
  return diffBoundaries(data.router, s.candidate.router, s.reviewCells, { match: s.reviewMatch });
}
