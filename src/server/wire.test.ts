import { describe, it, expect } from 'vitest';
import { parseSearchParams, ParamError, MAX_SIZE, DEFAULT_SIZE, MIN_RADIUS_KM, describeQuery, decimalString, searchQueryString, redactUrl } from './wire.ts';
import { DIETS, ALLERGENS, CUISINES } from '../data/generator.ts';
import { KM_PER_MILE } from '../core/index.ts';

const parse = (qs: string) => parseSearchParams(new URLSearchParams(qs));

/** fails returns the ParamError a query string raises (and fails the test if it raises none). */
function fails(qs: string): ParamError {
  try {
    parse(qs);
  } catch (e) {
    expect(e).toBeInstanceOf(ParamError);
    return e as ParamError;
  }
  throw new Error(`expected ${qs} to be rejected`);
}

describe('parseSearchParams', () => {
  it('reads a circle with a radius in miles and converts it to km', () => {
    const p = parse('lat=37.77&lng=-122.42&radius=15mi');
    expect(p.circle).toEqual({ lat: 37.77, lng: -122.42, radius: { value: 15, unit: 'mi', km: 15 * 1.609344 } });
    expect(p.size).toBe(DEFAULT_SIZE);
    expect(p.compare).toBe(false);
  });

  it('reads kilometres and takes bare numbers as miles', () => {
    expect(parse('lat=0&lng=0&radius=25km').circle?.radius.km).toBe(25);
    expect(parse('lat=0&lng=0&radius=10').circle?.radius.km).toBeCloseTo(10 * KM_PER_MILE, 12);
  });

  it('treats a search without lat, lng and radius as a search with no location', () => {
    expect(parse('diet=vegan').circle).toBeNull();
    expect(parse('').circle).toBeNull();
  });

  it('names lat when it is out of range or not a number', () => {
    for (const v of ['91', '-90.5', 'abc', '', 'NaN', 'Infinity']) {
      const e = fails(`lat=${v}&lng=0&radius=1`);
      expect(e.param).toBe('lat');
      expect(e.message).toContain('[-90, 90]');
    }
  });

  it('names lng when it is out of range', () => {
    const e = fails('lat=0&lng=181&radius=1');
    expect(e.param).toBe('lng');
    expect(e.message).toContain('"181"');
    expect(e.message).toContain('[-180, 180]');
  });

  it('requires lat and lng together', () => {
    expect(fails('lat=1&radius=1').param).toBe('lng');
    expect(fails('lng=1&radius=1').param).toBe('lat');
  });

  it('requires a radius with a location and refuses one without', () => {
    expect(fails('lat=1&lng=1').param).toBe('radius');
    const e = fails('radius=5mi');
    expect(e.param).toBe('radius');
    expect(e.message).toContain('without a location');
  });

  it('refuses radii that are zero, negative, unparseable or beyond the core maximum', () => {
    for (const v of ['0', '-3mi', 'far', '1001km', '622mi']) {
      const e = fails(`lat=0&lng=0&radius=${encodeURIComponent(v)}`);
      expect(e.param).toBe('radius');
      expect(e.message).toContain(JSON.stringify(v));
    }
    expect(parse('lat=0&lng=0&radius=1000km').circle?.radius.km).toBe(1000);
  });

  it('reads filters repeated or comma-separated, deduplicated, in vocabulary order', () => {
    const p = parse('lat=0&lng=0&radius=1&diet=vegan,vegetarian&diet=vegan&allergen=peanuts&allergen=GLUTEN&cuisine=thai');
    expect(p.diets).toEqual(['vegetarian', 'vegan']);
    expect(p.allergens).toEqual(['gluten', 'peanuts']);
    expect(p.cuisines).toEqual(['thai']);
  });

  it('accepts every value of each vocabulary', () => {
    const p = parse(`diet=${DIETS.join(',')}&allergen=${ALLERGENS.join(',')}&cuisine=${CUISINES.join(',')}`);
    expect(p.diets).toEqual([...DIETS]);
    expect(p.allergens).toEqual([...ALLERGENS]);
    expect(p.cuisines).toEqual([...CUISINES]);
  });

  it('names an unknown filter value and lists the valid ones', () => {
    const e = fails('diet=paleo');
    expect(e.param).toBe('diet');
    expect(e.message).toContain('"paleo"');
    for (const d of DIETS) expect(e.message).toContain(d);
    expect(fails('allergen=pollen').param).toBe('allergen');
    expect(fails('cuisine=martian').param).toBe('cuisine');
    expect(fails('diet=vegan,,keto').param).toBe('diet');
  });

  it('limits size to [0, MAX_SIZE]', () => {
    expect(parse('size=0').size).toBe(0);
    expect(parse(`size=${MAX_SIZE}`).size).toBe(MAX_SIZE);
    for (const v of [String(MAX_SIZE + 1), '-1', '2.5', 'ten']) expect(fails(`size=${v}`).param).toBe('size');
  });

  it('reads compare as 1/true/0/false', () => {
    expect(parse('compare=1').compare).toBe(true);
    expect(parse('compare=true').compare).toBe(true);
    expect(parse('compare=0').compare).toBe(false);
    expect(fails('compare=yes').param).toBe('compare');
  });

  it('reads profile as 1/true/0/false, off when absent, and writes it back only when asked', () => {
    expect(parse('').profile).toBe(false);
    expect(parse('profile=1').profile).toBe(true);
    expect(parse('profile=true').profile).toBe(true);
    expect(parse('profile=0').profile).toBe(false);
    const e = fails('profile=on');
    expect(e.param).toBe('profile');
    expect(e.message).toContain('"on"');
    const base = { circle: null, filters: { diet: [], allergen: [], cuisine: [] }, size: 5, compare: true };
    expect(searchQueryString({ ...base, profile: true })).toBe('size=5&compare=1&profile=1');
    expect(searchQueryString(base)).toBe('size=5&compare=1');
  });

  it('refuses parameters outside the query shape, naming them', () => {
    for (const k of ['routing', 'index', 'body', 'preference']) {
      const e = fails(`${k}=x`);
      expect(e.param).toBe(k);
      expect(e.message).toContain('expected only lat, lng, radius, diet, allergen, cuisine, size, compare, profile, q');
    }
  });

  it('takes a text query q (trimmed), refusing an empty or over-long one, and echoes it only when given', () => {
    const p = parseSearchParams(new URLSearchParams('q=%20Saint%20Louis%20'));
    expect(p.text).toBe('Saint Louis');
    expect(describeQuery(p).text).toBe('Saint Louis');
    expect(parseSearchParams(new URLSearchParams('size=1')).text).toBeUndefined();
    expect('text' in describeQuery(parseSearchParams(new URLSearchParams('size=1')))).toBe(false);
    for (const bad of ['q=', 'q=%20%20', `q=${'x'.repeat(201)}`]) {
      const e = fails(bad);
      expect(e.param).toBe('q');
      expect(e.message).toContain('expected a text of 1 to 200 characters');
    }
  });

  it('refuses a single-valued parameter given twice', () => {
    expect(fails('lat=1&lat=2&lng=0&radius=1').param).toBe('lat');
    expect(fails('size=1&size=2').param).toBe('size');
  });

  it('echoes the query with its units', () => {
    const q = describeQuery(parse('lat=1&lng=2&radius=10km&allergen=milk'));
    expect(q).toMatchObject({ lat: 1, lng: 2, radius: '10km', radiusKm: 10, allergensExcluded: ['milk'] });
    expect(q.radiusMi).toBeCloseTo(10 / 1.609344, 12);
  });

  it('accepts decimal numbers only for lat and lng, naming the parameter, the value and what is valid', () => {
    // Number() reads these as 16, 1, 7, 100, 16 and 0.5: the API must not.
    for (const v of ['0x10', '0b1', '0o7', '1e2', '1E1', ' 5', '5 ', '.5', '5.', '1_0', '+-1', '٣']) {
      for (const name of ['lat', 'lng'] as const) {
        const qs = name === 'lat' ? `lat=${encodeURIComponent(v)}&lng=0&radius=1` : `lat=0&lng=${encodeURIComponent(v)}&radius=1`;
        const e = fails(qs);
        expect(e.param).toBe(name);
        expect(e.message).toContain(JSON.stringify(v));
        expect(e.message).toContain('decimal number of degrees');
      }
    }
    expect(parse('lat=-33.5&lng=%2B151.25&radius=1').circle).toMatchObject({ lat: -33.5, lng: 151.25 });
    expect(parse('lat=0.0000001&lng=-0&radius=1').circle?.lat).toBe(1e-7);
  });

  it('accepts decimal radii only, with the unit mi or km', () => {
    for (const v of ['1e-300km', '1e2km', '0x10', '0b1km', '0o7mi', 'Infinitykm', '15 mi', '.5km', '15mi ', '15ft', '-1km']) {
      const e = fails(`lat=0&lng=0&radius=${encodeURIComponent(v)}`);
      expect(e.param).toBe('radius');
      expect(e.message).toContain(JSON.stringify(v));
      expect(e.message).toMatch(/decimal number .* mi or km/);
    }
    expect(parse('lat=0&lng=0&radius=15KM').circle?.radius.km).toBe(15);
    expect(parse('lat=0&lng=0&radius=2miles').circle?.radius.km).toBeCloseTo(2 * KM_PER_MILE, 12);
  });

  it('refuses radii below the stated minimum of 10 m, saying the minimum and the maximum', () => {
    expect(MIN_RADIUS_KM).toBe(0.01);
    for (const v of ['0.009km', '0.0000001km', '0.005mi']) {
      const e = fails(`lat=0&lng=0&radius=${v}`);
      expect(e.param).toBe('radius');
      expect(e.message).toContain(JSON.stringify(v));
      expect(e.message).toContain('from 0.01 km to 1000 km');
    }
    expect(parse('lat=0&lng=0&radius=0.01km').circle?.radius.km).toBe(0.01);
    // 0.01 km is 0.0062137 mi: 0.0063mi is just above the minimum.
    expect(parse('lat=0&lng=0&radius=0.0063mi').circle?.radius.km).toBeCloseTo(0.0063 * 1.609344, 12);
    expect(describeQuery(parse('lat=0&lng=0&radius=0.01km')).radius).toBe('0.01km');
  });

  it('names an unknown parameter quoted, so an empty or odd name is still visible', () => {
    const e = fails('=1');
    expect(e.param).toBe('');
    expect(e.message).toContain('"" is not a search parameter');
  });
});

describe('decimalString', () => {
  it('writes numbers as plain decimals that read back to the same number', () => {
    const cases: [number, string][] = [
      [1e-7, '0.0000001'],
      [-1.5e-7, '-0.00000015'],
      [1.2345e-10, '0.00000000012345'],
      [1e21, '1000000000000000000000'],
      [1.5e22, '15000000000000000000000'],
      [37.7749, '37.7749'],
      [-122.4194, '-122.4194'],
      [0, '0'],
    ];
    for (const [n, s] of cases) {
      expect(decimalString(n)).toBe(s);
      expect(Number(decimalString(n))).toBe(n);
    }
  });
});

describe('searchQueryString', () => {
  it('writes what parseSearchParams reads back exactly, even for coordinates String() writes with an exponent', () => {
    const qs = searchQueryString({ circle: { lat: 1e-7, lng: -2.5e-8, radius: { value: 0.5, unit: 'km' } }, filters: { diet: ['vegan'], allergen: [], cuisine: [] }, size: 5, compare: true });
    expect(qs).not.toMatch(/e-/);
    const p = parseSearchParams(new URLSearchParams(qs));
    expect(p.circle).toEqual({ lat: 1e-7, lng: -2.5e-8, radius: { value: 0.5, unit: 'km', km: 0.5 } });
    expect(p).toMatchObject({ diets: ['vegan'], size: 5, compare: true });
  });
});

describe('redactUrl', () => {
  it('removes user:password@ from a URL and from URLs inside a message', () => {
    expect(redactUrl('https://elastic:s3cret@search.example.com:9200')).toBe('https://search.example.com:9200');
    expect(redactUrl('GET / on http://a:b@h:1 failed; see https://c:d@k/x')).toBe('GET / on http://h:1 failed; see https://k/x');
    expect(redactUrl('http://h:9200/path@x')).toBe('http://h:9200/path@x');
  });
});
