/**
 * Reading and writing the fields of any document's source as OpenSearch maps them: a field at a
 * dotted path (fieldAt, withFieldAt), a geo_point in any form the engine accepts (pointOf), a
 * join field's relation (relationOf), and a point's level-10 cell (cellOf). Pure.
 */
import { cellAt, cellToken } from '../core/index.ts';

/** A document's source: what `_source` holds. */
export type Source = Record<string, unknown>;

/** cellOf returns the level-10 token of a point (degrees). */
export function cellOf(lat: number, lng: number): string {
  return cellToken(cellAt(lat, lng));
}

/**
 * pointOf reads a geo_point as OpenSearch accepts it: { lat, lon }, "lat,lon",
 * [lon, lat] (GeoJSON order) or a GeoJSON Point; degrees. Null for anything else
 * (a geohash is not read).
 */
export function pointOf(v: unknown): { lat: number; lng: number } | null {
  const ok = (lat: number, lng: number) => (Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null);
  if (Array.isArray(v) && v.length >= 2 && typeof v[0] === 'number' && typeof v[1] === 'number') return ok(v[1], v[0]);
  if (typeof v === 'string') {
    const m = /^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$/.exec(v);
    return m ? ok(Number(m[1]), Number(m[2])) : null;
  }
  if (v && typeof v === 'object') {
    const o = v as { lat?: unknown; lon?: unknown; type?: unknown; coordinates?: unknown };
    if (typeof o.lat === 'number' && typeof o.lon === 'number') return ok(o.lat, o.lon);
    if (o.type === 'Point') return pointOf(o.coordinates);
  }
  return null;
}

/**
 * fieldAt returns the value at a field path of a source, as OpenSearch maps
 * it: a key holding the whole dotted path (`{ "a.b": v }`), else nested
 * objects (`{ a: { b: v } }`); undefined when there is none.
 */
export function fieldAt(source: Source | undefined, path: string): unknown {
  if (!source) return undefined;
  if (Object.prototype.hasOwnProperty.call(source, path)) return source[path];
  let cur: unknown = source;
  for (const part of path.split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** withFieldAt returns the source with `value` at a field path (where fieldAt finds it: a dotted key, else nested objects, made as needed). */
export function withFieldAt(source: Source, path: string, value: unknown): Source {
  if (Object.prototype.hasOwnProperty.call(source, path) || !path.includes('.')) return { ...source, [path]: value };
  const [head, ...rest] = path.split('.');
  const inner = source[head];
  return { ...source, [head]: withFieldAt(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Source) : {}, rest.join('.'), value) };
}

/** relationOf returns a join field's relation name (the field is `"parent"` or `{ name, parent }`): undefined when the field is absent, null when it names none. */
export function relationOf(v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  const name = (v as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : null;
}
