/**
 * Whether two searches (routed and all shards) gave the same answer: compareParts.
 */
import type { AnySearchPart } from './searchRun.ts';

/**
 * compareParts says whether two searches gave the same answer: the same
 * total, the same hit ids in the same order, and the same facet counts.
 * `differences` names each difference (empty when identical).
 */
export function compareParts(a: Pick<AnySearchPart, 'total' | 'hits' | 'facets'>, b: Pick<AnySearchPart, 'total' | 'hits' | 'facets'>): { identical: boolean; differences: string[] } {
  const fa = a.facets as unknown as Record<string, unknown>;
  const fb = b.facets as unknown as Record<string, unknown>;
  const differences: string[] = [];
  if (a.total !== b.total) differences.push(`total: routed ${a.total}, all shards ${b.total}`);
  const ia = a.hits.map((h) => h.id);
  const ib = b.hits.map((h) => h.id);
  if (ia.length !== ib.length) differences.push(`hits: routed returned ${ia.length}, all shards ${ib.length}`);
  const k = ia.findIndex((id, i) => id !== ib[i]);
  if (k >= 0 && k < Math.min(ia.length, ib.length)) differences.push(`hits: first difference at position ${k}: routed ${ia[k]}, all shards ${ib[k]}`);
  // Every facet either side has (the sample's: diets, allergens, cuisines; an index's: its config's), in a fixed order.
  for (const key of [...new Set([...Object.keys(fa), ...Object.keys(fb)])]) {
    if (JSON.stringify(fa[key]) !== JSON.stringify(fb[key])) differences.push(`facets.${key} differ`);
  }
  return { identical: differences.length === 0, differences };
}
