/**
 * One description of an index (`geoshard.config.json`): which index, which
 * geo_point field locates a document, what a document weighs, the field shown
 * in hits, an optional parent/child join and optional facets. Every command
 * that reads an index takes it (flags override its keys); the bundled sample
 * (restaurants and their dishes in `dishes`) is the default, SAMPLE_CONFIG.
 *
 *     {
 *       "index": "places",                  an index or alias name
 *       "location": "pos",                  a geo_point field path
 *       "weight": "docs",                   "docs" (every document 1) or { "field": "population" }
 *       "name": "name",                     the field shown in hits, or null (hits show their _id)
 *       "join": null,                       or { "field", "parent", "child", "childLocation" }
 *       "facets": ["country"]               up to MAX_FACETS field paths (optional, default [])
 *     }
 *
 * Only `index` and `location` are required. A join names the join field, its
 * parent and child relations and the field holding a child's copy of its
 * parent's location (children are located, and routed, with their parent).
 *
 * No Node imports: only the core's helpers.
 */
import { validateBoundaryFile } from '../core/index.ts';
import { reportUnknownFields, show, RESERVED_KEYS } from '../core/fields.ts';

/** What a document weighs in the cells file and the balance: 1 each, or the value of a numeric field. */
export type IndexWeight = 'docs' | { field: string };

/** A parent/child join: the join field, its relation names, and the child's copy of its parent's location. */
export interface IndexJoin {
  field: string;
  parent: string;
  child: string;
  childLocation: string;
}

/** A validated index description (parseIndexConfig / checkIndexConfig fill every key). */
export interface IndexConfig {
  index: string;
  location: string;
  weight: IndexWeight;
  name: string | null;
  join: IndexJoin | null;
  facets: string[];
}

/** The keys of the file, in the order the documentation lists them. */
export const INDEX_CONFIG_KEYS = ['index', 'location', 'weight', 'name', 'join', 'facets'] as const;
export const JOIN_KEYS = ['field', 'parent', 'child', 'childLocation'] as const;

/** The most facets a config names. */
export const MAX_FACETS = 16;

/** The conventional config file name (a command reads a config only when --config names it). */
export const CONFIG_FILE_NAME = 'geoshard.config.json';

/** The bundled sample: restaurants (parents, `location`) and their dishes (children, `restaurant_location`) in `dishes`. */
export const SAMPLE_CONFIG: Readonly<IndexConfig> = Object.freeze({
  index: 'dishes',
  location: 'location',
  weight: 'docs',
  name: 'name',
  join: Object.freeze({ field: 'join', parent: 'restaurant', child: 'dish', childLocation: 'restaurant_location' }),
  facets: Object.freeze(['cuisines', 'price_level']) as unknown as string[],
}) as IndexConfig;

/** A field path as OpenSearch names a field: parts of letters, digits, `_`, `-` or `@` joined by single dots. */
export const FIELD_PATH = /^[A-Za-z0-9_@-]+(\.[A-Za-z0-9_@-]+)*$/;
const FIELD_WHAT = 'a field path: letters, digits, _, - or @, parts joined by single dots (such as "pos" or "geo.point"), at most 255 characters';

/** fieldPathProblem returns why `v` is not a field path, or null when it is one. */
export function fieldPathProblem(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > 255 || !FIELD_PATH.test(v) || RESERVED_KEYS.includes(v)) return `${show(v)} is not ${FIELD_WHAT}`;
  return null;
}

/** indexNameProblem returns why `v` is not an OpenSearch index (or alias) name, with the boundary file's rule, or null. */
export function indexNameProblem(v: unknown): string | null {
  const p = validateBoundaryFile({ index: v }).find((e) => e.field === 'index');
  return p ? p.message.slice('index: '.length) : null;
}

/** One problem of a config: the key (a JSON path such as `join.child`) and the message naming the value and what is valid. */
export interface IndexConfigProblem {
  field: string;
  message: string;
}

/** IndexConfigError lists every problem of a config, one per line, each naming the key. */
export class IndexConfigError extends Error {
  constructor(
    readonly problems: IndexConfigProblem[],
    source = 'index config',
  ) {
    super(`${source} is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.map((p) => p.message).join('\n  ')}`);
    this.name = 'IndexConfigError';
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * checkIndexConfig validates a parsed config and returns it with every
 * optional key filled (weight "docs", name null, join null, facets []), or
 * the list of problems (all of them, each naming the key, the value and what
 * is valid). Unknown keys are problems (a misspelt "locaton" would silently
 * fall back otherwise).
 */
export function checkIndexConfig(value: unknown): { config: IndexConfig | null; problems: IndexConfigProblem[] } {
  const problems: IndexConfigProblem[] = [];
  const err = (field: string, message: string) => problems.push({ field, message: `${field}: ${message}` });
  if (!isObj(value)) {
    return { config: null, problems: [{ field: '', message: `${show(value)} is not an object { ${INDEX_CONFIG_KEYS.join(', ')} }: the index, its location field and (optionally) weight, name, join, facets` }] };
  }
  // "$schema" points an editor at data/config.schema.json; the config itself ignores it.
  reportUnknownFields(value, '', 'an index config', [...INDEX_CONFIG_KEYS, '$schema'], err);
  for (const k of RESERVED_KEYS) if (Object.prototype.hasOwnProperty.call(value, k)) err(k, 'reserved key: remove it');
  const field = (key: string, v: unknown) => {
    const p = fieldPathProblem(v);
    if (p) err(key, p);
  };
  if (value.index === undefined) err('index', 'missing: name the index or alias to read, such as "places"');
  else {
    const p = indexNameProblem(value.index);
    if (p) err('index', p);
  }
  if (value.location === undefined) err('location', 'missing: name the geo_point field that locates a document, such as "pos"');
  else field('location', value.location);
  const weight = value.weight ?? 'docs';
  if (weight !== 'docs') {
    if (!isObj(weight)) err('weight', `${show(weight)} is invalid: expected "docs" (every document weighs 1) or { "field": "<numeric field>" }`);
    else {
      reportUnknownFields(weight, 'weight', 'weight', ['field'], err);
      field('weight.field', weight.field);
      if (weight.field === 'docs' || weight.field === 'token') err('weight.field', `${show(weight.field)} is a column the cells file always has: a weight field needs another name (for "docs", every document 1, write "weight": "docs")`);
    }
  }
  const name = value.name ?? null;
  if (name !== null) field('name', name);
  const join = value.join ?? null;
  if (join !== null) {
    if (!isObj(join)) err('join', `${show(join)} is invalid: expected null (no join) or { ${JOIN_KEYS.join(', ')} }`);
    else {
      reportUnknownFields(join, 'join', 'join', JOIN_KEYS, err);
      for (const k of JOIN_KEYS) {
        if (join[k] === undefined) err(`join.${k}`, `missing: a join names ${JOIN_KEYS.join(', ')}`);
        else field(`join.${k}`, join[k]);
      }
      if (typeof join.parent === 'string' && join.parent === join.child) err('join.child', `${show(join.child)} is the parent relation's name too: the child relation needs its own name`);
      if (typeof join.childLocation === 'string' && join.childLocation === value.location) err('join.childLocation', `${show(join.childLocation)} is the location field itself: name the field holding a child's copy of its parent's location`);
    }
  }
  const facets = value.facets ?? [];
  if (!Array.isArray(facets) || facets.length > MAX_FACETS) err('facets', `${show(facets)} is invalid: expected an array of at most ${MAX_FACETS} field paths`);
  else {
    facets.forEach((f, i) => {
      field(`facets[${i}]`, f);
      if (facets.indexOf(f) !== i) err(`facets[${i}]`, `${show(f)} is listed twice (first at facets[${facets.indexOf(f)}])`);
    });
  }
  if (problems.length > 0) return { config: null, problems };
  return {
    config: {
      index: value.index as string,
      location: value.location as string,
      weight: weight === 'docs' ? 'docs' : { field: (weight as { field: string }).field },
      name: name as string | null,
      join: join === null ? null : (({ field, parent, child, childLocation }) => ({ field, parent, child, childLocation }))(join as unknown as IndexJoin),
      facets: [...(facets as string[])],
    },
    problems,
  };
}

/** parseIndexConfig reads a config file's text; throws IndexConfigError naming `source` and listing every problem. */
export function parseIndexConfig(text: string, source = CONFIG_FILE_NAME): IndexConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new IndexConfigError([{ field: '', message: `not JSON: ${(e as Error).message}` }], source);
  }
  const { config, problems } = checkIndexConfig(value);
  if (!config) throw new IndexConfigError(problems, source);
  return config;
}

/** Flags that override a config's keys (absent = keep the config's). */
export interface IndexConfigOverrides {
  /** --index */
  index?: string;
  /** --field: the location field. */
  field?: string;
}

/**
 * withOverrides returns `config` with the flags' values in place of its keys;
 * each flag is checked with the key's rule (a problem names the flag).
 * `fromSample` says the config is SAMPLE_CONFIG (no --config): then --field
 * describes another, flat index, so the sample's join, name and facets (which
 * name the sample's fields) are dropped. Throws IndexConfigError.
 */
export function withOverrides(config: IndexConfig, o: IndexConfigOverrides, fromSample: boolean): IndexConfig {
  const problems: IndexConfigProblem[] = [];
  if (o.index !== undefined) {
    const p = indexNameProblem(o.index);
    if (p) problems.push({ field: '--index', message: `--index ${p}` });
  }
  if (o.field !== undefined) {
    const p = fieldPathProblem(o.field);
    if (p) problems.push({ field: '--field', message: `--field ${p}` });
  }
  if (problems.length > 0) throw new IndexConfigError(problems, 'the command line');
  const flat = fromSample && o.field !== undefined;
  return {
    ...config,
    ...(flat ? { name: null, join: null, facets: [] } : {}),
    facets: flat ? [] : [...config.facets],
    index: o.index ?? config.index,
    location: o.field ?? config.location,
  };
}

/** weightColumn returns the cells file column a config's weight is written to (and balanced by): "docs" or the field's path. */
export function weightColumn(config: IndexConfig): string {
  return config.weight === 'docs' ? 'docs' : config.weight.field;
}
