/**
 * The defensive readers the live API's endpoint modules share (search.ts, status.ts, measure.ts,
 * writes.ts, documents.ts, migration.ts): each takes a parsed JSON value of unknown shape and
 * returns a typed one or a fallback, so an answer in an unexpected shape is reported as such,
 * never half-drawn. A module of its own, without request.ts's messages, because
 * migration.ts's reader is on the first screen (the moving ranges on the globe).
 */

/** isObj: a JSON object (not an array, not null). */
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** num: a finite number, or `fallback`. */
export const num = (v: unknown, fallback = NaN): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
/** str: a string, or `fallback`. */
export const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
/** strs: the strings of an array (others dropped); [] when not an array. */
export const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** strOrNull: a string, or null. */
export const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** numOrNull: a finite number, or null. */
export const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** ShapeError: an answer lacks a field the panel needs (each reader maps it to a bad-response failure). */
export class ShapeError extends Error {}

/** need returns v, or throws a ShapeError naming `what` when it is missing. */
export function need<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new ShapeError(`the answer has no ${what}`);
  return v;
}
