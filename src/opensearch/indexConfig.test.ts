import { describe, it, expect } from 'vitest';
import { checkIndexConfig, parseIndexConfig, withOverrides, weightColumn, SAMPLE_CONFIG, IndexConfigError, MAX_FACETS } from './indexConfig.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { JOIN_FIELD, PARENT, CHILD, indexMappings } from './sampleIndex.ts';

const problemsOf = (v: unknown) => checkIndexConfig(v).problems.map((p) => p.message);

describe('index config: valid files', () => {
  it('fills the optional keys: weight docs, name null, join null, facets []', () => {
    expect(parseIndexConfig('{"index":"places","location":"pos"}')).toEqual({ index: 'places', location: 'pos', weight: 'docs', name: null, join: null, facets: [] });
  });

  it('reads every key', () => {
    const c = parseIndexConfig(
      JSON.stringify({ index: 'shops-v2', location: 'geo.point', weight: { field: 'visits' }, name: 'title', join: { field: 'rel', parent: 'shop', child: 'item', childLocation: 'shop_pos' }, facets: ['country', 'tags'] }),
    );
    expect(c).toEqual({ index: 'shops-v2', location: 'geo.point', weight: { field: 'visits' }, name: 'title', join: { field: 'rel', parent: 'shop', child: 'item', childLocation: 'shop_pos' }, facets: ['country', 'tags'] });
    expect(weightColumn(c)).toBe('visits');
  });

  it('describes the bundled sample as its mapping does (the join, both geo_point fields)', () => {
    const props = (indexMappings(fileWithCuts([100])) as { properties: Record<string, { type: string; relations?: Record<string, string> }> }).properties;
    expect(checkIndexConfig(SAMPLE_CONFIG).problems).toEqual([]);
    expect(SAMPLE_CONFIG.index).toBe('dishes');
    expect(props[SAMPLE_CONFIG.location].type).toBe('geo_point');
    expect(props[SAMPLE_CONFIG.join!.childLocation].type).toBe('geo_point');
    expect(SAMPLE_CONFIG.join).toEqual({ field: JOIN_FIELD, parent: PARENT, child: CHILD, childLocation: 'restaurant_location' });
    expect(props[SAMPLE_CONFIG.join!.field].relations).toEqual({ [PARENT]: CHILD });
    for (const f of SAMPLE_CONFIG.facets) expect(props[f]).toBeDefined();
    expect(weightColumn(SAMPLE_CONFIG)).toBe('docs');
  });
});

describe('index config: every problem listed, each naming the key, the value and what is valid', () => {
  it('lists all problems of one file at once', () => {
    const p = problemsOf({ index: 'Bad Name', locaton: 'pos', weight: 3, name: '', join: { field: 'j', parent: 'a', child: 'a' }, facets: ['x', 'x', 'a..b'] });
    expect(p).toEqual([
      expect.stringMatching(/^locaton: unknown field: an index config has only the fields index, location, weight, name, join, facets/),
      expect.stringMatching(/^index: "Bad Name"/),
      expect.stringMatching(/^location: missing: name the geo_point field/),
      expect.stringMatching(/^weight: 3 is invalid: expected "docs" \(every document weighs 1\) or \{ "field": "<numeric field>" \}/),
      expect.stringMatching(/^name: "" is not a field path/),
      expect.stringMatching(/^join\.childLocation: missing: a join names field, parent, child, childLocation/),
      expect.stringMatching(/^join\.child: "a" is the parent relation's name too/),
      expect.stringMatching(/^facets\[1\]: "x" is listed twice \(first at facets\[0\]\)/),
      expect.stringMatching(/^facets\[2\]: "a\.\.b" is not a field path/),
    ]);
  });

  const cases: [string, unknown, RegExp][] = [
    ['not an object', [1], /^\[1\] is not an object \{ index, location, weight, name, join, facets \}/],
    ['a missing index', { location: 'pos' }, /^index: missing: name the index or alias/],
    ['an index name OpenSearch refuses', { index: '_hidden', location: 'pos' }, /^index: "_hidden"/],
    ['a location that is not a string', { index: 'p', location: 7 }, /^location: 7 is not a field path/],
    ['a location with a trailing dot', { index: 'p', location: 'pos.' }, /^location: "pos\." is not a field path/],
    ['a weight object with an unknown key', { index: 'p', location: 'pos', weight: { field: 'n', sum: true } }, /^weight\.sum: unknown field/],
    ['a weight field named like a cells column', { index: 'p', location: 'pos', weight: { field: 'docs' } }, /^weight\.field: "docs" is a column the cells file always has/],
    ['a join that is not an object', { index: 'p', location: 'pos', join: 'parent' }, /^join: "parent" is invalid: expected null \(no join\) or \{ field, parent, child, childLocation \}/],
    ['a join whose childLocation is the location', { index: 'p', location: 'pos', join: { field: 'j', parent: 'a', child: 'b', childLocation: 'pos' } }, /^join\.childLocation: "pos" is the location field itself/],
    ['facets that are not an array', { index: 'p', location: 'pos', facets: 'country' }, /^facets: "country" is invalid: expected an array of at most 16 field paths/],
    ['too many facets', { index: 'p', location: 'pos', facets: Array.from({ length: MAX_FACETS + 1 }, (_, i) => `f${i}`) }, /^facets: .* is invalid: expected an array of at most 16/],
    ['a reserved key', JSON.parse('{"index":"p","location":"pos","__proto__":{}}'), /^__proto__: reserved key/],
  ];
  for (const [what, value, re] of cases) {
    it(`refuses ${what}`, () => {
      const { config, problems } = checkIndexConfig(value);
      expect(config).toBeNull();
      expect(problems.map((p) => p.message)).toContainEqual(expect.stringMatching(re));
    });
  }

  it('throws an IndexConfigError naming the file, for bad JSON and for bad keys', () => {
    expect(() => parseIndexConfig('{"index":', 'my.json')).toThrow(IndexConfigError);
    expect(() => parseIndexConfig('{"index":', 'my.json')).toThrow(/^my\.json is invalid \(1 problem\):\n {2}not JSON: /);
    expect(() => parseIndexConfig('{"index":"p"}', 'my.json')).toThrow(/^my\.json is invalid \(1 problem\):\n {2}location: missing/);
  });
});

describe('index config: flags override its keys', () => {
  const own = parseIndexConfig(JSON.stringify({ index: 'shops', location: 'pos', name: 'title', join: { field: 'rel', parent: 'shop', child: 'item', childLocation: 'shop_pos' }, facets: ['tags'] }));

  it('--index and --field replace the config file\'s index and location, keeping its other keys', () => {
    expect(withOverrides(own, { index: 'shops-v3', field: 'geo' }, false)).toEqual({ ...own, index: 'shops-v3', location: 'geo' });
    expect(withOverrides(own, {}, false)).toEqual(own);
  });

  it('--index alone keeps the sample shape (its join and facets) for another copy of the sample', () => {
    expect(withOverrides(SAMPLE_CONFIG, { index: 'geoshard-bench-large' }, true)).toEqual({ ...SAMPLE_CONFIG, index: 'geoshard-bench-large', facets: [...SAMPLE_CONFIG.facets] });
  });

  it('--field without a config file describes a flat index: no join, name or facets of the sample', () => {
    expect(withOverrides(SAMPLE_CONFIG, { index: 'places', field: 'pos' }, true)).toEqual({ index: 'places', location: 'pos', weight: 'docs', name: null, join: null, facets: [] });
  });

  it('checks each flag with its key\'s rule, naming the flag', () => {
    expect(() => withOverrides(own, { index: 'A,B', field: '' }, false)).toThrow(/^the command line is invalid \(2 problems\):\n {2}--index "A,B".*\n {2}--field "" is not a field path/);
  });

  it('never changes the sample config', () => {
    withOverrides(SAMPLE_CONFIG, { index: 'x', field: 'y' }, true);
    expect(SAMPLE_CONFIG.index).toBe('dishes');
    expect(Object.isFrozen(SAMPLE_CONFIG)).toBe(true);
  });
});
