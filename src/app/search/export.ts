/**
 * Downloads of the radius explorer: the current covering as GeoJSON and CSV,
 * and the worked-searches table as CSV. The text comes from the core
 * (coveringGeoJson, coveringCsv, workedSearchesCsv); this file only names
 * the files and hands them to the browser.
 */
import type { ShardTable } from '../../core/index';
import { coveringGeoJson, coveringCsv, workedSearchesCsv } from '../../core/exports';
import type { WorkedSearch } from '../../core/searches';
import type { SearchCovering } from './searchSlice';
import type { Radius } from '../../core/index';

/** coveringFileName names a covering export: "covering-40.7143_-74.006-15mi.geojson". */
export function coveringFileName(c: Pick<SearchCovering, 'lat' | 'lng'>, radius: Pick<Radius, 'value' | 'unit'>, ext: 'geojson' | 'csv'): string {
  const n = (v: number) => String(Number(v.toFixed(4)));
  return `covering-${n(c.lat)}_${n(c.lng)}-${Number(radius.value.toFixed(6))}${radius.unit}.${ext}`;
}

/** coveringExport returns the file name, MIME type and text of a covering export. */
export function coveringExport(router: ShardTable, c: SearchCovering, radius: Pick<Radius, 'value' | 'unit'>, kind: 'geojson' | 'csv'): { name: string; type: string; text: string } {
  if (kind === 'csv') return { name: coveringFileName(c, radius, 'csv'), type: 'text/csv', text: coveringCsv(router, c.route) };
  const gj = coveringGeoJson(router, c.route, { lat: c.lat, lng: c.lng, radius: { value: radius.value, unit: radius.unit, km: c.radiusKm } });
  return { name: coveringFileName(c, radius, 'geojson'), type: 'application/geo+json', text: JSON.stringify(gj) + '\n' };
}

/** workedExport returns the worked-searches table as a CSV download. */
export function workedExport(rows: readonly WorkedSearch[]): { name: string; type: string; text: string } {
  return { name: 'worked-searches.csv', type: 'text/csv', text: workedSearchesCsv(rows) };
}

/** download hands a text file to the browser's downloads (an object URL on a temporary link). */
export function download(file: { name: string; type: string; text: string }): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
