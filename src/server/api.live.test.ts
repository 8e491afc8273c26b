/**
 * The live API over real HTTP against a real OpenSearch node: routed and
 * unrouted searches give identical answers, those answers match a brute-force
 * count over the generated sample, and bad input is refused.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Router, KM_PER_MILE } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';
import { parseSearchParams } from './wire.ts';
import { sampleOf, sampleDishes } from '../data/sample.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, getJson, ROOT, TEST_INDEX, TEST_RESTAURANTS, TEST_DISHES_PER_RESTAURANT, type RunningApi } from '../testing/testkit.ts';
import { distanceKm } from '../core/earth.ts';
import { runSearch, planRouted, planAll } from './search/searchRun.ts';
import { compareParts } from './search/compare.ts';

const client = liveClient();
const file = derivedFile(TEST_INDEX);
const router = new Router(file);
const sample = sampleOf(TEST_RESTAURANTS);
const sampleById = new Map(sample.map((r) => [r.id, r]));
let server: RunningApi;

beforeAll(async () => {
  await ensureSeeded(client, file);
  server = await startApi({ file, client });
});
afterAll(async () => {
  await server?.close();
});

/** A circle to search, with optional filters. */
interface Case {
  label: string;
  lat: number;
  lng: number;
  radiusMi: number;
  diet?: string;
  allergen?: string;
}

/**
 * expectedTotal counts matching dishes by brute force over the generated
 * sample (haversine distance to every restaurant, filters on every dish): the
 * fewest and most the index can return, restaurants within 10 m of the circle's
 * edge counting as either (OpenSearch stores locations quantised to ~1 cm and
 * rounds its own way).
 */
function expectedTotal(c: Case): { min: number; max: number } {
  const rKm = c.radiusMi * KM_PER_MILE;
  let min = 0;
  let max = 0;
  for (const r of sample) {
    const d = distanceKm(c.lat, c.lng, r.lat, r.lng);
    if (d > rKm + 0.01) continue;
    const n = sampleDishes(r, TEST_DISHES_PER_RESTAURANT).filter(
      (x) => (!c.diet || (x.diets as string[]).includes(c.diet)) && (!c.allergen || !(x.allergens as string[]).includes(c.allergen)),
    ).length;
    max += n;
    if (d < rKm - 0.01) min += n;
  }
  return { min, max };
}

function queryOf(c: Case): string {
  return `lat=${c.lat}&lng=${c.lng}&radius=${c.radiusMi}mi${c.diet ? `&diet=${c.diet}` : ''}${c.allergen ? `&allergen=${c.allergen}` : ''}&size=30&compare=1`;
}

const cities = JSON.parse(readFileSync(resolve(ROOT, 'data', 'cities.json'), 'utf8')) as { name: string; state: string; lat: number; lng: number }[];
const FIXED = ['San Francisco', 'Los Angeles', 'Dallas', 'Miami', 'New York', 'Chicago'];

function cases(): Case[] {
  const out: Case[] = [];
  for (const name of FIXED) {
    const city = cities.find((c) => c.name === name);
    if (!city) throw new Error(`data/cities.json has no ${name}`);
    for (const radiusMi of [15, 50]) out.push({ label: `${name} ${radiusMi} mi`, lat: city.lat, lng: city.lng, radiusMi });
  }
  // 36 seeded random circles within the data's extent: centres near random
  // sample restaurants (up to ~0.3° away), radii log-uniform in [1, 300] mi;
  // every third one with a diet and an allergen filter.
  const rand = mulberry32(20261130);
  const diets = ['vegetarian', 'vegan', 'gluten-free', 'keto'];
  const allergens = ['gluten', 'milk', 'peanuts', 'soy'];
  for (let i = 0; i < 36; i++) {
    const r = sample[Math.floor(rand() * sample.length)];
    const lat = Math.round((r.lat + (rand() - 0.5) * 0.6) * 1e5) / 1e5;
    const lng = Math.round((r.lng + (rand() - 0.5) * 0.6) * 1e5) / 1e5;
    const radiusMi = Math.round(Math.exp(rand() * Math.log(300)) * 100) / 100;
    const c: Case = { label: `random #${i} (${lat}, ${lng}) ${radiusMi} mi`, lat, lng, radiusMi };
    if (i % 3 === 0) {
      c.diet = diets[Math.floor(rand() * diets.length)];
      c.allergen = allergens[Math.floor(rand() * allergens.length)];
    }
    out.push(c);
  }
  return out;
}

describe('routed and all-shards searches on the real node', () => {
  const all = cases();

  it('give the same answer with and without the dishes’ own location (filtered and scored on it, or decided and scored by the join alone)', async () => {
    let nonEmpty = 0;
    for (const c of all) {
      const params = parseSearchParams(new URLSearchParams(queryOf(c)));
      for (const plan of [planRouted(router, params), planAll(router)]) {
        const [joined, located] = [await runSearch(client, router, params, plan), await runSearch(client, router, params, plan, { located: true })];
        const cmp = compareParts(joined, located);
        expect(cmp.differences, `${c.label} ${plan.scope}`).toEqual([]);
        expect(located.hits.map((h) => h.restaurant), c.label).toEqual(joined.hits.map((h) => h.restaurant));
        if (located.total > 0) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(60);
  });

  it(`return identical hits, totals and facets for ${all.length} circles (6 cities × 15 and 50 mi, 36 seeded random), matching a brute-force count`, async () => {
    let nonEmpty = 0;
    let fewerShards = 0;
    for (const c of all) {
      const { status, body } = await getJson(`${server.url}/api/search?${queryOf(c)}`);
      expect(status, c.label).toBe(200);
      expect(body.status, c.label).toBe('complete');
      expect(body.identical, `${c.label}: ${body.differences}`).toBe(true);
      expect(body.total, c.label).toBe(body.unrouted.total);
      expect(body.hits.map((h: { id: string }) => h.id), c.label).toEqual(body.unrouted.hits.map((h: { id: string }) => h.id));

      // The routing string is the covering's shard names; OpenSearch asked exactly those shards.
      const cover = router.cover(c.lat, c.lng, c.radiusMi * KM_PER_MILE);
      expect(body.routing, c.label).toBe(cover.routing);
      expect(body.shards.total, c.label).toBe(cover.shards.length);
      expect(body.shards.failed, c.label).toBe(0);
      expect(body.unrouted.routing, c.label).toBeNull();
      expect(body.unrouted.shards.total, c.label).toBe(file.numberOfShards);

      // The answer is right, not merely the same twice.
      const exp = expectedTotal(c);
      expect(body.total, c.label).toBeGreaterThanOrEqual(exp.min);
      expect(body.total, c.label).toBeLessThanOrEqual(exp.max);

      // Hits come nearest first, each within the circle, each routed by its restaurant's shard.
      const rKm = c.radiusMi * KM_PER_MILE;
      let prev = -1;
      for (const h of body.hits) {
        expect(h.distanceKm, c.label).toBeLessThanOrEqual(rKm + 0.01);
        expect(h.distanceKm, c.label).toBeGreaterThanOrEqual(prev - 1e-6 * rKm);
        prev = h.distanceKm;
        expect(h.routing, c.label).toBe(router.route(h.restaurant.lat, h.restaurant.lng).name);
        // Its restaurant (the copy the dish carries) is the generated one, to the index's ~1 cm location precision.
        const g = sampleById.get(h.restaurant.id)!;
        expect(g, `${c.label}: restaurant ${h.restaurant.id}`).toBeDefined();
        expect({ name: h.restaurant.name, place: h.restaurant.place, state: h.restaurant.state, cuisines: h.restaurant.cuisines }, c.label).toEqual({ name: g.name, place: g.place, state: g.state, cuisines: g.cuisines });
        expect(Math.abs(h.restaurant.lat - g.lat) + Math.abs(h.restaurant.lng - g.lng), c.label).toBeLessThan(1e-6);
        if (c.diet) expect(h.diets, c.label).toContain(c.diet);
        if (c.allergen) expect(h.allergens, c.label).not.toContain(c.allergen);
      }
      if (body.total > 0) nonEmpty++;
      if (cover.shards.length < file.numberOfShards) fewerShards++;
    }
    // The check means something only if most circles found dishes and routing narrowed the shards.
    expect(nonEmpty).toBeGreaterThanOrEqual(30);
    expect(fewerShards).toBeGreaterThanOrEqual(30);
  });

  it('facet counts equal the brute-force counts for a city', async () => {
    const ny = cities.find((c) => c.name === 'New York')!;
    const { body } = await getJson(`${server.url}/api/search?lat=${ny.lat}&lng=${ny.lng}&radius=50mi&size=0`);
    const rKm = 50 * KM_PER_MILE;
    const counts = new Map<string, number>();
    for (const r of sample) {
      if (distanceKm(ny.lat, ny.lng, r.lat, r.lng) > rKm) continue;
      for (const d of sampleDishes(r, TEST_DISHES_PER_RESTAURANT)) for (const v of d.diets) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    expect(body.total).toBeGreaterThan(0);
    for (const f of body.facets.diets) expect(f.count, f.value).toBe(counts.get(f.value) ?? 0);
  });

  it('sends a search with no location to all shards and says so', async () => {
    const { status, body } = await getJson(`${server.url}/api/search?diet=vegan&size=5&compare=1`);
    expect(status).toBe(200);
    expect(body.scope).toBe('all-shards');
    expect(body.routing).toBeNull();
    expect(body.shardsAsked).toHaveLength(file.numberOfShards);
    expect(body.shards.total).toBe(file.numberOfShards);
    expect(body.note).toContain(`all ${file.numberOfShards} shards`);
    const vegan = sample.reduce((n, r) => n + sampleDishes(r, TEST_DISHES_PER_RESTAURANT).filter((d) => (d.diets as string[]).includes('vegan')).length, 0);
    expect(body.total).toBe(vegan);
    expect(body.identical).toBe(true);
  });

  it('reports took and wall times and per-shard status for both searches', async () => {
    const la = cities.find((c) => c.name === 'Los Angeles')!;
    const { body } = await getJson(`${server.url}/api/search?lat=${la.lat}&lng=${la.lng}&radius=15mi&compare=1`);
    for (const part of [body, body.unrouted]) {
      expect(typeof part.took).toBe('number');
      expect(part.wallMs).toBeGreaterThan(0);
      expect(part.shardsAsked.every((s: { status: string }) => s.status === 'ok')).toBe(true);
    }
    expect(body.shardsAsked.length).toBeLessThan(body.unrouted.shardsAsked.length);
    expect(body.ratio.shards).toBeCloseTo(body.shardsAsked.length / file.numberOfShards, 12);
  });
});

describe('bad parameters', () => {
  it('get 400 with a JSON error naming the parameter', async () => {
    const bad: [string, string][] = [
      ['lat=95&lng=0&radius=1', 'lat'],
      ['lat=0&lng=-200&radius=1', 'lng'],
      ['lat=0&lng=0', 'radius'],
      ['lat=0&lng=0&radius=5000mi', 'radius'],
      ['lat=0&lng=0&radius=1&diet=carnivore', 'diet'],
      ['lat=0&lng=0&radius=1&size=1000', 'size'],
      ['lat=0&lng=0&radius=1&routing=india', 'routing'],
    ];
    for (const [qs, param] of bad) {
      const { status, body } = await getJson(`${server.url}/api/search?${qs}`);
      expect(status, qs).toBe(400);
      expect(body.status, qs).toBe('invalid');
      expect(body.error.param, qs).toBe(param);
      expect(body.error.message, qs).toContain(param);
    }
  });

  it('only GET on the two endpoints is answered', async () => {
    expect((await fetch(`${server.url}/api/search`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${server.url}/api/_search`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/../_cat/indices`)).status).toBe(404);
  });
});

describe('GET /api/status', () => {
  it('reports the connection, cluster version, index, drift and document counts', async () => {
    const { status, body } = await getJson(`${server.url}/api/status`);
    expect(status).toBe(200);
    expect(body.connection.status).toBe('up');
    expect(body.connection.cluster.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.connection.url).not.toMatch(/@/);
    expect(body.drift.status).toBe('ok');
    expect(body.drift.indexHash).toBe(file.hash);
    expect(body.index.exists).toBe(true);
    expect(body.index.docs.restaurants).toBe(TEST_RESTAURANTS);
    expect(body.index.docs.dishes).toBe(sample.reduce((n, r) => n + Math.min(r.dishCount, TEST_DISHES_PER_RESTAURANT), 0));
    expect(body.index.shards).toHaveLength(file.numberOfShards);
    expect(body.index.shards.reduce((n: number, s: { docs: number }) => n + s.docs, 0)).toBe(body.index.docs.total);
    expect(body.boundary.hash).toBe(file.hash);
  });
});
