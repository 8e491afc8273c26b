/**
 * What every family of the live API's wire contract shares (src/server/wire.ts re-exports it):
 * the 400 of a field at fault (ParamError), how a value is quoted in its message, plain
 * decimals, the filters' vocabulary, every status an answer carries, and redactUrl (no
 * credentials in any answer or message: the connection's own, re-exported). No Node imports, no DOM: the browser bundle imports it.
 */
import { DIETS, ALLERGENS, CUISINES } from '../../data/vocabulary.ts';

/** The three filters; values come from the vocabulary. */
export type FilterKind = 'diet' | 'allergen' | 'cuisine';
export const FILTER_KINDS: readonly FilterKind[] = ['diet', 'allergen', 'cuisine'];

/** The vocabularies of the filters (from the dataset generator). */
export const VOCABULARY: Record<FilterKind, readonly string[]> = {
  diet: DIETS as readonly string[],
  allergen: ALLERGENS as readonly string[],
  cuisine: CUISINES,
};

/** ParamError is a 400: `param` is the query parameter at fault. */
export class ParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

/** show quotes a text value for a message, cut to 60 characters. */
export const show = (v: string) => JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);

/**
 * decimalString writes a finite number as a plain decimal that reads back to
 * the same number (shortest round trip, like String, but never in exponent
 * form: 1e-7 becomes "0.0000001"), so what the explorer sends the server accepts.
 */
export function decimalString(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', expRaw] = m;
  const exp = Number(expRaw);
  const digits = lead + frac;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return exp >= frac.length ? `${sign}${digits}${'0'.repeat(exp - frac.length)}` : `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Every status an API answer carries. */
export type ApiStatus = 'complete' | 'partial' | 'invalid' | 'drift' | 'unavailable' | 'error' | 'forbidden' | 'not-found' | 'busy';

// redactUrl is the connection's (src/cluster/redact.ts); answers carry it as the wire's too.
export { redactUrl } from '../../cluster/redact.ts';
