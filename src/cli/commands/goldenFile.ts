/**
 * The shape of a golden file (e2e/cities.golden.json, or a team's own from `geoshard golden
 * --cities`): the expected covering of each city at each radius, as the e2e tests read it off the
 * page. golden.ts (the command, the straddling rule) and goldenCsv.ts (a team's cities) both
 * build one.
 */

/** One expected search, as the e2e test checks it against the page. */
export interface GoldenEntry {
  name: string;
  /** State or country code, to tell namesakes apart ("Portland", OR and ME). */
  state: string;
  /** Degrees, as in the cities file. */
  lat: number;
  lng: number;
  /** The radius as the URL writes it, e.g. "15mi". */
  radius: string;
  /** Level-10 cells in the covering (data-testid="cell-count"). */
  cells: number;
  /** "k / N" (data-testid="shard-count"). */
  shardCount: string;
  /** Shard names in key order, comma-joined (data-testid="routing"). */
  routing: string;
}

/** The golden file e2e/cities.golden.json. */
export interface GoldenFile {
  generatedBy: string;
  /** The boundary file the values come from, relative to the repository root. */
  boundaryFile: string;
  boundaryHash: string;
  boundaryVersion: number;
  numberOfShards: number;
  citiesFile: string;
  straddleRule: string;
  /** The names of the straddling cities (the last entries). */
  straddling: string[];
  cities: GoldenEntry[];
}
