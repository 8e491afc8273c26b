/**
 * Field paths, quoted values and closed schemas: the helpers that name a field,
 * show its value in a problem message and refuse a field a schema does not have,
 * shared by every strict reader of a JSON document: the boundary file
 * (boundaries.ts), its `migration` field (migration.ts), an index's
 * `_meta.migration` state (migrationState.ts) and the index config
 * (src/opensearch/indexConfig.ts).
 */

/**
 * show returns a value as a problem message quotes it: JSON, cut to 60
 * characters. A number JSON cannot write (1e400 parses as Infinity) is
 * written as JavaScript does, not as JSON's "null".
 */
export function show(v: unknown): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return `${v} (a number out of range)`;
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/** Keys refused anywhere in a boundary file, at any depth: as object keys they could reach a prototype. */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * fieldPath returns the JSON path of key `k` under `path` ('' is the file
 * itself): `shards[2].name`, or `balance["odd key"]` for keys that are not
 * identifiers.
 */
export function fieldPath(path: string, k: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(k)) return path ? `${path}.${k}` : k;
  return `${path}[${JSON.stringify(k)}]`;
}

/**
 * reportUnknownFields calls err(field, message) for every own key of `obj`
 * (found at `path`, described as `what`) that is not in `allowed`. Reserved
 * keys are skipped: the structure scan of validateBoundaryFile names those.
 */
export function reportUnknownFields(obj: object, path: string, what: string, allowed: readonly string[], err: (field: string, message: string) => void): void {
  for (const k of Object.keys(obj)) {
    if (allowed.includes(k) || RESERVED_KEYS.includes(k)) continue;
    err(fieldPath(path, k), `unknown field: ${what} has only the fields ${allowed.join(', ')} (remove it, or check its spelling)`);
  }
}
