/**
 * Loading the data: the boundary file (validated by the core; the explorer
 * refuses to draw an invalid one and says why), and the sample cities. The
 * cells file and the land are parsed in the worker (worker.ts). The files
 * are the bundled data/, or the ones `geoshard explore` serves (servedData).
 *
 * Files are found with import.meta.glob, so a missing data file is a clear
 * message in the page rather than a build error; `?boundaries=/path.json`
 * (a same-origin path) opens another boundary file, e.g. a proposed one.
 */
import { parseBoundaryFile, BoundaryFileError, ShardTable, type BoundaryFile } from '../../core/index';
import { parseCities as parseCityList } from '../../core/searches';
import type { City } from '../../core/place';
import { serverPath, pageOrigin } from './url';

const FILES = import.meta.glob('/data/{boundaries.json,cells.csv,cities.json}', { query: '?url', import: 'default', eager: true }) as Record<string, string>;

/** A file the server names for the page: where to fetch it, and what to call it in messages. */
export interface ServedFile {
  /** A path on this server, such as /explore/boundaries.json. */
  url: string;
  /** The file's name for people (the user's file name), such as places.boundaries.json. */
  name: string;
}

/**
 * What `geoshard explore` serves the page with instead of the bundled data:
 * scripts/start.mjs writes it into the page as JSON, in
 * `<script type="application/json" id="geoshard-served">`.
 */
export interface ServedData {
  boundaries: ServedFile;
  cells: ServedFile | null;
}

const servedFile = (v: unknown): ServedFile | null => {
  const f = v as Partial<ServedFile> | null;
  // Paths on this server only: a page cannot be pointed at another host by what it carries.
  return f && typeof f.url === 'string' && /^\/(?!\/)/.test(f.url) && typeof f.name === 'string' ? { url: f.url, name: f.name } : null;
};

/**
 * servedData reads the files the server names in the page (see ServedData),
 * or null when it names none (`npm start`, `npm run dev`, a test without a
 * document) or names them in a form this version does not read.
 */
export function servedData(doc: Pick<Document, 'getElementById'> | undefined = typeof document === 'undefined' ? undefined : document): ServedData | null {
  const text = doc?.getElementById('geoshard-served')?.textContent;
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as { boundaries?: unknown; cells?: unknown };
    const boundaries = servedFile(raw.boundaries);
    return boundaries ? { boundaries, cells: servedFile(raw.cells) } : null;
  } catch {
    return null;
  }
}

const SERVED = servedData();

/** URLs of the data files: the ones the server names (servedData), else the bundled ones (undefined where a file is missing). */
export const DATA_URLS = {
  boundaries: SERVED?.boundaries.url ?? (FILES['/data/boundaries.json'] as string | undefined),
  cells: SERVED ? SERVED.cells?.url : (FILES['/data/cells.csv'] as string | undefined),
  cities: FILES['/data/cities.json'] as string | undefined,
};

/** The data files' names for people, beside DATA_URLS. */
export const DATA_NAMES = {
  boundaries: SERVED?.boundaries.name ?? 'data/boundaries.json',
  cells: SERVED ? (SERVED.cells?.name ?? 'the cells file') : 'data/cells.csv',
};

/** DataLoadError: a title for the page and the list of problems, each naming the field or file. */
export class DataLoadError extends Error {
  constructor(
    readonly title: string,
    readonly problems: string[],
  ) {
    super(`${title}: ${problems.join('; ')}`);
    this.name = 'DataLoadError';
  }
}

/** A validated boundary file and its router. */
export interface LoadedBoundaries {
  file: BoundaryFile;
  router: ShardTable;
  /** Where the file came from (a URL path), for messages and the header. */
  source: string;
}

type Fetch = (url: string) => Promise<Pick<Response, 'ok' | 'status' | 'statusText' | 'text'>>;

/**
 * boundariesSource returns the boundary file to open: the `boundaries`
 * parameter of the query string if it is a same-origin path, else the bundled
 * data/boundaries.json. Throws DataLoadError if neither exists or the
 * parameter is not a path.
 */
export function boundariesSource(search: string, bundled: string | null = DATA_URLS.boundaries ?? null, origin: string = pageOrigin()): string {
  const param = new URLSearchParams(search).get('boundaries');
  if (param !== null) {
    const path = serverPath(param, origin);
    if (path === null) {
      throw new DataLoadError('Cannot open the boundary file', [`boundaries=${param} is not a path on this server: expected a path such as /data/boundaries.json (it must resolve to ${new URL(origin).origin})`]);
    }
    return path;
  }
  if (!bundled) {
    throw new DataLoadError('data/boundaries.json is missing', ['the explorer draws the bundled boundary file: run `npm run data:generate` (or `npx geoshard balance`) to create it, then reload']);
  }
  return bundled;
}

/** loadBoundaries fetches a boundary file and validates it with the core; throws DataLoadError listing every problem. */
export async function loadBoundaries(url: string, fetchFn: Fetch = fetch): Promise<LoadedBoundaries> {
  const text = await fetchText(url, 'the boundary file', fetchFn);
  // The bundled file is served under a build-hashed name; people know it as data/boundaries.json (or the served file by its own name).
  const name = url === DATA_URLS.boundaries ? DATA_NAMES.boundaries : url.replace(/^\/@fs/, '').replace(/\?.*$/, '');
  try {
    const file = parseBoundaryFile(text, name);
    return { file, router: new ShardTable(file, name), source: name };
  } catch (e) {
    if (e instanceof BoundaryFileError) throw new DataLoadError(`${name} is not a valid boundary file`, e.errors.map((x) => x.message));
    throw e;
  }
}

/** A sample city from data/cities.json (the core's record). */
export type { City };

/** parseCities reads data/cities.json; throws DataLoadError naming the first bad entry. */
export function parseCities(text: string, source = 'cities.json'): City[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DataLoadError(`${source} is not JSON`, [(e as Error).message]);
  }
  try {
    return parseCityList(raw, source).map((c) => ({ ...c, country: c.country ?? '', population: c.population ?? 0 }));
  } catch (e) {
    throw new DataLoadError(`${source} has a bad entry`, [(e as Error).message]);
  }
}

/**
 * fetchText fetches a text file; throws DataLoadError naming the URL and the
 * HTTP status or network error, or saying that the server returned an HTML
 * page (a path the server does not have answers with the app's own page).
 */
export async function fetchText(url: string, what: string, fetchFn: Fetch = fetch): Promise<string> {
  let res: Awaited<ReturnType<Fetch>>;
  try {
    res = await fetchFn(url);
  } catch (e) {
    throw new DataLoadError(`Cannot load ${what}`, [`${url}: ${(e as Error).message}`]);
  }
  if (!res.ok) throw new DataLoadError(`Cannot load ${what}`, [`${url}: HTTP ${res.status} ${res.statusText}`.trim()]);
  const text = await res.text();
  if (/^\s*<(!doctype\s+html|html[\s>])/i.test(text)) {
    const noun = /boundary file/.test(what) ? 'a boundary file' : what;
    throw new DataLoadError(`Cannot load ${what}`, [
      `${url}: the server returned HTML, not ${noun}: the file is not served at this path (to review a file on your disk, run \`npx geoshard review --candidate FILE\`, which serves it and opens the explorer)`,
    ]);
  }
  return text;
}
