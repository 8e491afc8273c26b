/**
 * What an engineer pastes into the search box, read in one place: an S2 cell token of any
 * level, a `lat,lng` pair, or (in live mode) a document id. Anything else is a city query
 * (CitySearch matches it against the sample cities).
 *
 * Pure: no DOM, no store. The token rules are the core's (core/anyCell.ts, s2js).
 */
import { parseAnyToken, HEX_TOKEN, type AnyCell } from '../../core/anyCell';

/** What the box's text is. */
export type Pasted =
  /** A valid S2 cell of any level. */
  | { kind: 'cell'; cell: AnyCell }
  /** A point, degrees: lat in [-90, 90], lng in [-180, 180]. */
  | { kind: 'point'; lat: number; lng: number }
  /** A document id to look up in the live index (live mode only). */
  | { kind: 'doc'; id: string }
  /** Looks like a token or a pair but is not a valid one: `message` says why, for the box. */
  | { kind: 'invalid'; message: string }
  /** Nothing an engineer pastes: a city query (or empty). */
  | { kind: 'text' };

/** The document ids the live API takes (as its write ids): 1 to 64 of A-Z, a-z, 0-9, "_" and "-". */
export const DOC_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `id:` before a text forces it to be read as a document id (an id that is also hex, like `cafe`). */
const DOC_PREFIX = /^(?:id|doc):\s*/i;

// Two decimal numbers split by a comma and/or spaces, optionally in parentheses or brackets,
// each optionally followed by a degree sign: "40.7128,-74.006", "(40.7128, -74.006)", "40.7 -74".
const NUMBER = '([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*°?';
const PAIR = new RegExp(`^[([]?\\s*${NUMBER}\\s*(?:,\\s*|\\s+)${NUMBER}\\s*[)\\]]?$`);

/**
 * parsePasted reads the box's text. Order: a `lat,lng` pair; then an S2 token (1 to 16 hex
 * digits, either case; invalid ones, such as a face above 5, are `invalid` with the core's
 * reason when the text has a digit, so a hex-looking word like "bad" stays a city query); then,
 * when `live` is on, a document id (`id:` forces one); else text. Out-of-range coordinates are
 * `invalid`, naming the value and the range.
 */
export function parsePasted(raw: string, opts: { live: boolean }): Pasted {
  const text = raw.trim();
  if (!text) return { kind: 'text' };
  if (DOC_PREFIX.test(text)) {
    const id = text.replace(DOC_PREFIX, '');
    if (!opts.live) return { kind: 'invalid', message: 'Switch Live on to look up a document id: ids are read from the cluster.' };
    if (!DOC_ID.test(id)) return { kind: 'invalid', message: `document id ${JSON.stringify(id)} is invalid: expected 1 to 64 characters of A-Z, a-z, 0-9, "_" and "-"` };
    return { kind: 'doc', id };
  }
  const pair = PAIR.exec(text);
  if (pair) {
    const lat = Number(pair[1]);
    const lng = Number(pair[2]);
    if (!(lat >= -90 && lat <= 90)) return { kind: 'invalid', message: `lat ${pair[1]} is out of range: a latitude is in [-90, 90] degrees (write lat,lng, latitude first)` };
    if (!(lng >= -180 && lng <= 180)) return { kind: 'invalid', message: `lng ${pair[2]} is out of range: a longitude is in [-180, 180] degrees` };
    return { kind: 'point', lat, lng };
  }
  if (HEX_TOKEN.test(text)) {
    try {
      return { kind: 'cell', cell: parseAnyToken(text) };
    } catch (e) {
      // A word such as "bead" is a city query that happens to be hex; a text with a digit is a token.
      if (/\d/.test(text)) return { kind: 'invalid', message: (e as Error).message };
    }
  }
  if (opts.live && DOC_ID.test(text) && /\d/.test(text)) return { kind: 'doc', id: text };
  return { kind: 'text' };
}
