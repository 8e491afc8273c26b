/** Number and coordinate formatting for the explorer's readouts (en-US digits, so readouts are stable). */

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** formatInt writes an integer with thousands separators: 1536 → "1,536". */
export function formatInt(n: number): string {
  return int.format(n);
}

/** formatLevelReadout writes the level readout: "drawn at L4 · 1,536 cells" (6·4^level cells). */
export function formatLevelReadout(level: number): string {
  return `drawn at L${level} · ${formatInt(6 * 4 ** level)} cells`;
}

/** formatZoom writes a zoom factor as a percentage: 1 → "100%", 12.5 → "1,250%". */
export function formatZoom(zoom: number): string {
  return `${formatInt(Math.round(zoom * 100))}%`;
}

/** formatLatLng writes a point as "37.7749° N, 122.4194° W" (4 decimals, about 10 m). */
export function formatLatLng(lat: number, lng: number): string {
  return `${Math.abs(lat).toFixed(4)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lng).toFixed(4)}° ${lng >= 0 ? 'E' : 'W'}`;
}

/** formatCompact writes large counts briefly: 1234567 → "1.2M", 5300 → "5.3k". */
export function formatCompact(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** ms with a sensible precision: "0.84 ms", "12.3 ms", "240 ms". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms < 1 ? `${ms.toFixed(2)} ms` : ms < 100 ? `${ms.toFixed(1)} ms` : `${formatInt(Math.round(ms))} ms`;
}

export interface NamedPoint {
  name: string;
  state: string;
  lat: number;
  lng: number;
}

/**
 * centreLabel names a search centre: the sample city at that point (within
 * 1e-4°, the URL's precision) as "New York, NY", else the coordinates.
 */
export function centreLabel(lat: number, lng: number, cities: readonly NamedPoint[]): string {
  for (const c of cities) {
    if (Math.abs(c.lat - lat) < 1e-4 && Math.abs(c.lng - lng) < 1e-4) return cityLabel(c);
  }
  return formatLatLng(lat, lng);
}

/** cityLabel writes "Name, ST" (just the name when the state is unknown). */
export function cityLabel(c: { name: string; state: string }): string {
  return c.state ? `${c.name}, ${c.state}` : c.name;
}
