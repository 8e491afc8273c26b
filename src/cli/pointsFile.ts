/**
 * Points files for `geoshard cells --from-file`: the documents' locations
 * offline, counted into level-10 cells with the core's CellCounter.
 *
 *   CSV (.csv, or any name whose first line is not a JSON object): a header,
 *     then one row per document. The point is two columns (--lat / --lng,
 *     default the columns named lat and lng, lon or long) or one column
 *     holding a geo_point string "lat,lon" (--field, quoted as CSV quotes it).
 *   NDJSON (.ndjson, .jsonl, or a first line starting with "{"): one JSON
 *     object per line; the point is the key --field (a dotted path) holding a
 *     geo_point as OpenSearch accepts it ({lat, lon}, "lat,lon", [lon, lat],
 *     a GeoJSON Point; default the config's location), or the keys --lat /
 *     --lng holding numbers.
 *
 * Every line must hold a valid point (latitude in [-90, 90], longitude in
 * [-180, 180]); the first bad one stops the read with a message naming the
 * line, the column or key and the value. An optional weight column or key
 * (the config's weight field) must hold a number >= 0.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { CellCounter } from '../core/index.ts';
import { decimal } from './args.ts';
import { splitCsvLine } from './commands/goldenCsv.ts';
import { CliError } from './io.ts';
import { fieldAt, pointOf } from '../opensearch/documentFields.ts';

/** How to find the point (and the weight) in each line. */
export interface PointsFileOptions {
  /** CSV column / NDJSON key of the latitude and longitude (both or neither). */
  lat?: string;
  lng?: string;
  /** CSV column / NDJSON key (dotted path) holding the whole geo_point. */
  field?: string;
  /** The NDJSON key read when neither field nor lat/lng is given (the config's location; default "location"). */
  defaultField?: string;
  /** CSV column / NDJSON key holding the document's weight (a number >= 0), written as a weight column of that name. */
  weight?: string;
  /** Force the format (default: by the file name's extension, else by the first line). */
  format?: 'csv' | 'ndjson';
}

const LAT_NAMES = ['lat', 'latitude'];
const LNG_NAMES = ['lng', 'lon', 'long', 'longitude'];

const shown = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'missing' : JSON.stringify(v);
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
};

/**
 * PointsReader counts the points of one file, line by line (feed each line
 * with `line`, in order, then read `counter`). Throws CliError naming the
 * file, line, column or key and value on the first bad line.
 */
export class PointsReader {
  readonly counter: CellCounter;
  private lineNo = 0;
  private format: 'csv' | 'ndjson' | null;
  private latAt = -1;
  private lngAt = -1;
  private pointColumn = -1;
  private weightAt = -1;
  private columns: string[] = [];
  private readonly w: number[] = [];

  constructor(
    readonly source: string,
    readonly o: PointsFileOptions = {},
  ) {
    if ((o.lat === undefined) !== (o.lng === undefined)) throw new CliError(`geoshard cells: --${o.lat === undefined ? 'lat' : 'lng'} is missing: --lat and --lng name the latitude and longitude together`, 2);
    if (o.field !== undefined && o.lat !== undefined) throw new CliError('geoshard cells: give --field (one geo_point column or key) or --lat and --lng (two), not both', 2);
    this.format = o.format ?? (/\.(ndjson|jsonl)$/i.test(source) ? 'ndjson' : /\.csv$/i.test(source) ? 'csv' : null);
    this.counter = new CellCounter(o.weight ? [o.weight] : []);
  }

  private fail(message: string): never {
    throw new CliError(`geoshard cells: ${this.source} line ${this.lineNo}: ${message}`);
  }

  /** line reads the next line of the file. */
  line(text: string): void {
    this.lineNo++;
    if (this.lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return;
    if (this.format === null) this.format = text.trimStart().startsWith('{') ? 'ndjson' : 'csv';
    if (this.format === 'ndjson') this.json(text);
    else if (this.columns.length === 0) this.header(text);
    else this.row(text);
  }

  private header(text: string): void {
    const cols = splitCsvLine(text) ?? this.fail('the header has a double quote that is not closed');
    this.columns = cols;
    const find = (name: string, what: string) => {
      const i = cols.indexOf(name);
      if (i < 0) this.fail(`the header ${shown(text)} has no column ${JSON.stringify(name)} (${what}): its columns are ${cols.join(', ')}`);
      return i;
    };
    if (this.o.field !== undefined) this.pointColumn = find(this.o.field, '--field');
    else if (this.o.lat !== undefined) {
      this.latAt = find(this.o.lat, '--lat');
      this.lngAt = find(this.o.lng!, '--lng');
    } else {
      const lower = cols.map((c) => c.toLowerCase());
      this.latAt = lower.findIndex((c) => LAT_NAMES.includes(c));
      this.lngAt = lower.findIndex((c) => LNG_NAMES.includes(c));
      if (this.latAt < 0 || this.lngAt < 0) this.fail(`the header ${shown(text)} has no latitude and longitude columns (lat and lng, lon or long): name them with --lat COL --lng COL, or a "lat,lon" column with --field COL`);
    }
    if (this.o.weight !== undefined) this.weightAt = find(this.o.weight, 'the weight field');
  }

  private coord(text: string | undefined, column: string, lat: boolean): number {
    const v = text === undefined ? undefined : decimal(text);
    const limit = lat ? 90 : 180;
    if (v === undefined || Math.abs(v) > limit) this.fail(`${column} ${shown(text)} is not a ${lat ? 'latitude' : 'longitude'}: expected a number of degrees in [-${limit}, ${limit}]`);
    return v;
  }

  private weightOf(v: unknown, where: string): void {
    if (this.o.weight === undefined) return;
    const n = typeof v === 'number' ? v : typeof v === 'string' ? decimal(v) : undefined;
    if (n === undefined || !Number.isFinite(n) || n < 0) this.fail(`${where} ${shown(v)} is not a weight: expected a number >= 0`);
    this.w[0] = n;
  }

  private row(text: string): void {
    const f = splitCsvLine(text) ?? this.fail('a double quote is not closed');
    if (f.length !== this.columns.length) this.fail(`${f.length} fields: expected ${this.columns.length} (${this.columns.join(',')})`);
    let lat: number;
    let lng: number;
    if (this.pointColumn >= 0) {
      const p = pointOf(f[this.pointColumn]);
      if (!p) this.fail(`column ${JSON.stringify(this.columns[this.pointColumn])} ${shown(f[this.pointColumn])} is not a point: expected "lat,lon" in degrees (quoted, as in "37.77,-122.42")`);
      ({ lat, lng } = p);
    } else {
      lat = this.coord(f[this.latAt], `column ${JSON.stringify(this.columns[this.latAt])}`, true);
      lng = this.coord(f[this.lngAt], `column ${JSON.stringify(this.columns[this.lngAt])}`, false);
    }
    if (this.weightAt >= 0) this.weightOf(f[this.weightAt], `column ${JSON.stringify(this.columns[this.weightAt])}`);
    this.counter.add(lat, lng, this.w);
  }

  private json(text: string): void {
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch (e) {
      this.fail(`not a JSON object (NDJSON has one per line): ${(e as Error).message}`);
    }
    if (!o || typeof o !== 'object' || Array.isArray(o)) this.fail(`${shown(o)} is not a JSON object (NDJSON has one per line)`);
    const obj = o as Record<string, unknown>;
    let lat: number;
    let lng: number;
    if (this.o.lat !== undefined) {
      const a = fieldAt(obj, this.o.lat);
      const b = fieldAt(obj, this.o.lng!);
      lat = this.coord(typeof a === 'number' ? String(a) : (a as string | undefined), `key ${JSON.stringify(this.o.lat)}`, true);
      lng = this.coord(typeof b === 'number' ? String(b) : (b as string | undefined), `key ${JSON.stringify(this.o.lng)}`, false);
    } else {
      const key = this.o.field ?? this.o.defaultField ?? 'location';
      const v = fieldAt(obj, key);
      const p = pointOf(v);
      if (!p) this.fail(`key ${JSON.stringify(key)} ${shown(v)} is not a geo_point: expected {"lat": .., "lon": ..}, "lat,lon", [lon, lat] or a GeoJSON Point, in degrees${this.o.field === undefined ? ' (name the key with --field KEY, or --lat/--lng)' : ''}`);
      ({ lat, lng } = p);
    }
    if (this.o.weight !== undefined) this.weightOf(fieldAt(obj, this.o.weight), `key ${JSON.stringify(this.o.weight)}`);
    this.counter.add(lat, lng, this.w);
  }

  /** finish checks the file held at least one point. */
  finish(): CellCounter {
    if (this.format === 'csv' && this.columns.length === 0) throw new CliError(`geoshard cells: ${this.source} is empty: expected a header line, then one point per line`);
    if (this.counter.total === 0) throw new CliError(`geoshard cells: ${this.source} holds no points: expected ${this.format === 'ndjson' ? 'one JSON object per line' : 'rows after the header'}`);
    return this.counter;
  }
}

/** readPointsFile streams a points file (any size) and returns its cell counts; CliError naming the path when it cannot be read. */
export async function readPointsFile(path: string, o: PointsFileOptions = {}): Promise<CellCounter> {
  const reader = new PointsReader(path, o);
  const stream = createReadStream(path, { encoding: 'utf8' });
  try {
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    for await (const line of lines) reader.line(line);
  } catch (e) {
    if (e instanceof CliError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`geoshard cells: cannot read points file ${path}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  } finally {
    stream.destroy();
  }
  return reader.finish();
}
