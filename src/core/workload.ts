/**
 * A workload: the searches a boundary file is judged against. One concept for
 * every source of searches: a file (a real log, or one `geoshard workload`
 * generated), or the built-in centre × radius mix of searchWorkload.ts
 * (searchesOfMix turns one into the other).
 *
 * The workload file, one search per line:
 *
 *     lat,lng,radius[,timestamp][,weight]
 *     37.7749,-122.4194,15mi
 *     40.7143,-74.006,2mi,2026-11-24T12:05:00Z,3
 *
 * - lat in degrees [-90, 90], lng in degrees [-180, 180];
 * - radius: a positive number with its unit, `mi` or `km` (e.g. `15mi`,
 *   `25km`), at most MAX_RADIUS_KM;
 * - timestamp (optional): ISO-8601 date and time with a zone, e.g.
 *   `2026-11-24T12:05:00Z` or `2026-11-24T07:05:00-05:00`; may be left empty
 *   (`lat,lng,radius,,2`);
 * - weight (optional, default 1): a positive finite number, how many searches
 *   the line stands for (a sampled log writes its sampling factor);
 * - `#` starts a comment (whole line or after the fields); blank lines are
 *   ignored; a header line `lat,lng,radius[,timestamp][,weight]` may come first.
 *
 * With four fields the fourth is a timestamp if it looks like one (it starts
 * with a four-digit year and a dash), otherwise a weight.
 */
import { parseRadius, formatRadius, KM_PER_MILE, type Radius } from './cover.ts';
import type { Workload } from './searchWorkload.ts';

/** One search of a workload. */
export interface WorkloadSearch {
  /** Centre, degrees: lat in [-90, 90], lng in [-180, 180]. */
  lat: number;
  lng: number;
  /** The radius as written and in km, in (0, MAX_RADIUS_KM]. */
  radius: Radius;
  /** How many searches this one stands for: finite, > 0. */
  weight: number;
  /** When it was made, ms since the Unix epoch (UTC), or null when not given. */
  time: number | null;
}

/** Largest workload file parseWorkload reads, in characters (64 Mi: about a million searches). */
export const MAX_WORKLOAD_CHARS = 64 * 1024 * 1024;

/** Most searches parseWorkload reads. */
export const MAX_WORKLOAD_SEARCHES = 1_000_000;

/** The header formatWorkload writes (and parseWorkload accepts, with the last fields optional). */
export const WORKLOAD_HEADER = 'lat,lng,radius,timestamp,weight';

/** WorkloadFileError lists every problem of a workload file (up to a limit), one per line. */
export class WorkloadFileError extends RangeError {
  constructor(
    readonly source: string,
    readonly problems: string[],
    more: number,
  ) {
    super(`${source} is not a valid workload file:\n${problems.map((p) => `  ${p}`).join('\n')}${more > 0 ? `\n  … and ${more} more` : ''}`);
    this.name = 'WorkloadFileError';
  }
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const RADIUS_RE = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*(mi|km)$/i;
const HEADER_RE = /^lat\s*,\s*lng\s*,\s*radius(\s*,\s*timestamp)?(\s*,\s*weight)?$/i;

/**
 * parseTimestamp reads an ISO-8601 date-time with a zone ("2026-11-24T12:05:00Z",
 * "…-05:00") to ms since the epoch, or returns null when it is not one (or is
 * not a real date, such as February 30th).
 */
export function parseTimestamp(text: string): number | null {
  const m = ISO_RE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  if (d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  const t = Date.parse(text);
  return Number.isFinite(t) ? t : null;
}

/**
 * parseWorkload reads a workload file (format in the file comment) into its
 * searches, in file order. Throws a WorkloadFileError naming, for each bad
 * line (the first 20), the line number, the field, the value and what is
 * valid; or when the text is longer than MAX_WORKLOAD_CHARS, holds more than
 * MAX_WORKLOAD_SEARCHES searches, or holds none.
 */
export function parseWorkload(text: string, source = 'workload file'): WorkloadSearch[] {
  if (text.length > MAX_WORKLOAD_CHARS) {
    throw new WorkloadFileError(source, [`it has ${text.length} characters: a workload file may have at most ${MAX_WORKLOAD_CHARS} (about ${MAX_WORKLOAD_SEARCHES.toLocaleString('en-US')} searches); sample it and give each line a weight`], 0);
  }
  const problems: string[] = [];
  let more = 0;
  const bad = (line: number, msg: string) => (problems.length < 20 ? problems.push(`line ${line}: ${msg}`) : more++);
  const out: WorkloadSearch[] = [];
  const lines = text.split(/\r?\n/);
  let seenData = false;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const hash = lines[i].indexOf('#');
    const line = (hash >= 0 ? lines[i].slice(0, hash) : lines[i]).trim();
    if (line === '') continue;
    if (!seenData && HEADER_RE.test(line)) {
      seenData = true;
      continue;
    }
    seenData = true;
    const f = line.split(',').map((s) => s.trim());
    if (f.length < 3 || f.length > 5) {
      bad(n, `${JSON.stringify(line)} has ${f.length} field${f.length === 1 ? '' : 's'}: expected lat,lng,radius with an optional timestamp and weight (3 to 5 comma-separated fields)`);
      continue;
    }
    const before = problems.length + more;
    const lat = Number(f[0]);
    if (!NUMBER_RE.test(f[0]) || lat < -90 || lat > 90) bad(n, `lat ${JSON.stringify(f[0])} is invalid: expected a latitude in degrees in [-90, 90]`);
    const lng = Number(f[1]);
    if (!NUMBER_RE.test(f[1]) || lng < -180 || lng > 180) bad(n, `lng ${JSON.stringify(f[1])} is invalid: expected a longitude in degrees in [-180, 180]`);
    let radius: Radius | null = null;
    if (!RADIUS_RE.test(f[2])) bad(n, `radius ${JSON.stringify(f[2])} is invalid: expected a positive number with its unit, mi or km, such as "15mi" or "25km"`);
    else {
      try {
        radius = parseRadius(f[2], 'mi', 'radius');
      } catch (e) {
        bad(n, (e as Error).message);
      }
    }
    let tsField: string | undefined;
    let wField: string | undefined;
    if (f.length === 5) [tsField, wField] = [f[3], f[4]];
    else if (f.length === 4) {
      if (/^\d{4}-/.test(f[3]) || f[3] === '') tsField = f[3];
      else wField = f[3];
    }
    let time: number | null = null;
    if (tsField !== undefined && tsField !== '') {
      time = parseTimestamp(tsField);
      if (time === null) bad(n, `timestamp ${JSON.stringify(tsField)} is invalid: expected an ISO-8601 date and time with a zone, such as "2026-11-24T12:05:00Z" or "2026-11-24T07:05:00-05:00", or an empty field`);
    }
    let weight = 1;
    if (wField !== undefined) {
      weight = Number(wField);
      if (!NUMBER_RE.test(wField) || !Number.isFinite(weight) || weight <= 0) bad(n, `weight ${JSON.stringify(wField)} is invalid: expected a positive number (how many searches the line stands for)`);
    }
    if (problems.length + more > before) continue;
    if (out.length >= MAX_WORKLOAD_SEARCHES) {
      throw new WorkloadFileError(source, [`line ${n}: more than ${MAX_WORKLOAD_SEARCHES.toLocaleString('en-US')} searches: sample the log and give each line a weight`], 0);
    }
    out.push({ lat, lng, radius: radius!, weight, time });
  }
  if (problems.length > 0) throw new WorkloadFileError(source, problems, more);
  if (out.length === 0) throw new WorkloadFileError(source, ['it holds no search: expected lines such as "37.7749,-122.4194,15mi"'], 0);
  return out;
}

/** formatWorkload writes searches as a workload file: the header, then lat,lng,radius,timestamp,weight per line (empty timestamp when null). */
export function formatWorkload(searches: readonly WorkloadSearch[]): string {
  const rows = searches.map((s) => `${Number(s.lat.toFixed(6))},${Number(s.lng.toFixed(6))},${formatRadius(s.radius)},${s.time === null ? '' : new Date(s.time).toISOString()},${Number(s.weight.toPrecision(12))}`);
  return `${WORKLOAD_HEADER}\n${rows.join('\n')}\n`;
}

/**
 * searchesOfMix turns the built-in centre × radius mix (searchWorkload.ts's
 * searchWorkload) into a workload: every centre at every radius, weighted by
 * the radius's share of searches, without timestamps. Every figure computed
 * over a workload then applies to the built-in mix unchanged.
 */
export function searchesOfMix(mix: Workload): WorkloadSearch[] {
  const out: WorkloadSearch[] = [];
  for (const c of mix.centres) {
    for (const r of mix.radii) {
      const unit = r.label.endsWith('km') ? 'km' : 'mi';
      const value = unit === 'km' ? r.km : r.km / KM_PER_MILE;
      out.push({ lat: c.lat, lng: c.lng, radius: { value, unit, km: r.km }, weight: r.weight, time: null });
    }
  }
  return out;
}

/** workloadWeight sums the weights of a workload's searches. */
export function workloadWeight(searches: readonly WorkloadSearch[]): number {
  let w = 0;
  for (const s of searches) w += s.weight;
  return w;
}
