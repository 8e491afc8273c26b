import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellAt, cellOrdinal, cellToken, isLevel10Token, parseToken } from '../core/cells.ts';
import { buildDataTexts, DEFAULT_OUT_DIR, type DataTexts } from './generate.ts';
import {
  ALLERGENS,
  apportion,
  CUISINES,
  DIETS,
  DISHES_MAX,
  DISHES_MIN,
  dishCountOf,
  dishesOf,
  restaurantAt,
  restaurantLocation,
  sampleRestaurants,
  placeIndexOf,
  type Dish,
} from './generator.ts';
import { spreadKm, MAX_SIGMAS } from '../core/sampling.ts';
import { KM_PER_DEGREE } from '../core/earth.ts';
import type { City } from '../core/place.ts';

let data: DataTexts;

beforeAll(() => {
  data = buildDataTexts();
}, 60_000);

describe('committed data files', () => {
  it('data/cells.csv is reproduced byte for byte', () => {
    expect(data.cellsCsv === readFileSync(join(DEFAULT_OUT_DIR, 'cells.csv'), 'utf8')).toBe(true);
  });

  it('data/cities.json is reproduced byte for byte', () => {
    expect(data.citiesJson).toBe(readFileSync(join(DEFAULT_OUT_DIR, 'cities.json'), 'utf8'));
  });

  it('cells.csv: header, canonical level-10 tokens, strictly ascending ordinals, LF, trailing newline, a few MB at most', () => {
    const text = data.cellsCsv;
    expect(text.endsWith('\n') && !text.includes('\r')).toBe(true);
    expect(text.length).toBeLessThan(4_000_000);
    const lines = text.slice(0, -1).split('\n');
    expect(lines[0]).toBe('token,restaurants,dishes');
    let prev = -1;
    let restaurants = 0;
    let dishes = 0;
    for (const line of lines.slice(1)) {
      const [token, r, d] = line.split(',');
      const ord = cellOrdinal(parseToken(token));
      if (!(ord > prev) || !(Number(r) > 0)) expect.fail(`bad row ${line}`);
      prev = ord;
      restaurants += Number(r);
      dishes += Number(d);
    }
    expect(lines.length - 1).toBe(data.summary.cells);
    expect(restaurants).toBe(data.summary.restaurants);
    expect(dishes).toBe(data.summary.dishes);
  });
});

describe('totals', () => {
  it('restaurants and dishes are within 2% of 650,000 and 55,000,000', () => {
    expect(Math.abs(data.summary.restaurants / 650_000 - 1)).toBeLessThan(0.02);
    expect(Math.abs(data.summary.dishes / 55_000_000 - 1)).toBeLessThan(0.02);
  });

  it('apportion keeps the total exactly', () => {
    expect(apportion([1, 1, 1], 10)).toEqual([4, 3, 3]);
    expect(apportion([5, 3, 2], 7).reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('dish counts are clamped with median ~60 and mean ~85', () => {
    const counts = Array.from(data.dataset.dishCount).sort((a, b) => a - b);
    expect(counts[0]).toBeGreaterThanOrEqual(DISHES_MIN);
    expect(counts[counts.length - 1]).toBeLessThanOrEqual(DISHES_MAX);
    expect(Math.abs(counts[counts.length >> 1] - 60)).toBeLessThanOrEqual(2);
    expect(Math.abs(data.summary.dishes / data.summary.restaurants - 85)).toBeLessThan(2);
  });
});

describe('determinism', () => {
  it('locations, cells and dish counts are pure functions of the index', () => {
    const ds = data.dataset;
    for (let j = 0; j < 2000; j++) {
      const i = (j * 7919 * 41) % ds.restaurantCount;
      const r = restaurantAt(ds, i);
      const place = ds.places[placeIndexOf(ds, i)];
      expect(place.id).toBe(r.placeId);
      expect(restaurantLocation(place, i)).toEqual({ lat: ds.lat[i], lng: ds.lng[i] });
      expect(r.cell).toBe(cellToken(cellAt(r.lat, r.lng)));
      expect(dishCountOf(i)).toBe(r.dishCount);
      // Within MAX_SIGMAS of the place (small-angle distance, km).
      const dy = (r.lat - place.lat) * KM_PER_DEGREE;
      const dx = (r.lng - place.lng) * KM_PER_DEGREE * Math.cos((place.lat * Math.PI) / 180);
      expect(Math.hypot(dx, dy)).toBeLessThan(MAX_SIGMAS * spreadKm(place.population) + 0.01);
    }
  });

  it('restaurants and dishes regenerate identically', () => {
    const ds = data.dataset;
    const a = sampleRestaurants(ds, 300);
    const b = sampleRestaurants(ds, 300);
    expect(b).toEqual(a);
    expect(a.slice(0, 20).map(dishesOf)).toEqual(b.slice(0, 20).map(dishesOf));
    expect(restaurantAt(ds, 123).id).toBe('r000123');
  });
});

describe('sample', () => {
  it('sampleRestaurants(20000) is distinct and spread over >= 40 states', () => {
    const s = sampleRestaurants(data.dataset, 20_000);
    expect(s.length).toBe(20_000);
    expect(new Set(s.map((r) => r.id)).size).toBe(20_000);
    expect(new Set(s.map((r) => r.state)).size).toBeGreaterThanOrEqual(40);
    expect(new Set(s.map((r) => r.cell)).size).toBeGreaterThan(5_000);
  });

  it('restaurant attributes are valid', () => {
    for (const r of sampleRestaurants(data.dataset, 500)) {
      expect(r.id).toMatch(/^r\d{6}$/);
      expect(r.name.length).toBeGreaterThan(2);
      expect(r.state).toMatch(/^[A-Z]{2}$/);
      expect(r.cuisines.length === 1 || r.cuisines.length === 2).toBe(true);
      expect(new Set(r.cuisines).size).toBe(r.cuisines.length);
      for (const c of r.cuisines) expect(CUISINES).toContain(c);
      expect([1, 2, 3, 4]).toContain(r.priceLevel);
      expect(isLevel10Token(r.cell)).toBe(true);
    }
  });

  it('dishes: count, ids, fields and diets consistent with allergens', () => {
    const notVegan = ['milk', 'eggs', 'fish', 'crustaceans', 'molluscs'];
    const problems: string[] = [];
    const check = (ok: boolean, d: Dish, what: string) => {
      if (!ok && problems.length < 20) problems.push(`${d.id}: ${what}: ${JSON.stringify(d)}`);
    };
    let total = 0;
    for (const r of sampleRestaurants(data.dataset, 400)) {
      const dishes: Dish[] = dishesOf(r);
      expect(dishes.length).toBe(r.dishCount);
      dishes.forEach((d, k) => {
        total++;
        const has = (a: string) => (d.allergens as string[]).includes(a);
        check(d.id === `${r.id}-d${k}` && d.restaurantId === r.id, d, 'id');
        check(r.cuisines.includes(d.cuisine) && d.name.length > 2, d, 'cuisine/name');
        check(d.ingredients.length >= 3 && d.ingredients.length <= 8, d, 'ingredient count');
        check(new Set(d.ingredients).size === d.ingredients.length, d, 'distinct ingredients');
        check(Number.isInteger(d.calories) && d.calories > 0, d, 'calories');
        check(Number.isInteger(d.priceCents) && d.priceCents > 0, d, 'price');
        check(d.allergens.every((a) => ALLERGENS.includes(a)) && d.diets.every((x) => DIETS.includes(x)), d, 'vocabulary');
        if (d.diets.includes('vegan')) check(d.diets.includes('vegetarian') && !notVegan.some(has), d, 'vegan');
        if (d.diets.includes('vegetarian')) check(!has('fish') && !has('crustaceans') && !has('molluscs'), d, 'vegetarian');
        if (d.diets.includes('gluten-free')) check(!has('gluten'), d, 'gluten-free');
        if (d.diets.includes('dairy-free')) check(!has('milk'), d, 'dairy-free');
      });
    }
    expect(problems).toEqual([]);
    expect(total).toBeGreaterThan(20_000);
  });
});

describe('cities.json', () => {
  const cities = () =>
    JSON.parse(data.citiesJson) as City[];

  it('has ~60 US cities and a handful elsewhere, all valid', () => {
    const list = cities();
    const us = list.filter((c) => c.country === 'US');
    expect(us.length).toBeGreaterThanOrEqual(55);
    expect(list.length - us.length).toBeGreaterThanOrEqual(5);
    expect(new Set(us.map((c) => c.state)).size).toBeGreaterThanOrEqual(35);
    for (const c of list) {
      expect(Object.keys(c)).toEqual(['name', 'state', 'country', 'lat', 'lng', 'population']);
      expect(c.country).toMatch(/^[A-Z]{2}$/);
      expect(c.state).toMatch(/^[A-Z]{2}$/);
      if (c.country !== 'US') expect(c.state).toBe(c.country);
      expect(Math.abs(c.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(c.lng)).toBeLessThanOrEqual(180);
      expect(Math.round(c.lat * 1e4) / 1e4).toBe(c.lat);
      expect(Math.round(c.lng * 1e4) / 1e4).toBe(c.lng);
      expect(Number.isInteger(c.population) && c.population >= 1000).toBe(true);
    }
    expect(new Set(list.map((c) => `${c.name}/${c.state}`)).size).toBe(list.length);
  });

  it('contains the six presets', () => {
    const byName = new Map(cities().map((c) => [c.name, c]));
    for (const n of ['San Francisco', 'Los Angeles', 'Dallas', 'Miami', 'New York', 'Chicago']) {
      expect(byName.get(n)?.country).toBe('US');
    }
    expect(byName.get('San Francisco')!.lat).toBeCloseTo(37.77, 1);
    expect(byName.get('New York')!.lng).toBeCloseTo(-74.0, 1);
  });
});
