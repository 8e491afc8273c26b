/**
 * The search benches' workload (bench/capacity.bench.ts, bench/settings.bench.ts): one search
 * per US city of data/cities.json at a radius, planned routed and on all shards by a router.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Router } from '../src/core/index.ts';
import { parseSearchParams, type SearchParams } from '../src/server/wire.ts';
import { ROOT } from '../src/testing/testkit.ts';
import { planRouted, planAll, type Plan } from '../src/server/search/searchRun.ts';

/** One search and its two plans. */
export interface Job {
  label: string;
  params: SearchParams;
  routed: Plan;
  all: Plan;
}

const cities = (JSON.parse(readFileSync(join(ROOT, 'data', 'cities.json'), 'utf8')) as { name: string; state: string; country: string; lat: number; lng: number }[]).filter((c) => c.country === 'US');

/** jobsFor returns a search of `radiusMi` miles (20 hits) around each US city, with its routed and all-shards plans under `router`. */
export const jobsFor = (router: Router, radiusMi: number): Job[] =>
  cities.map((c) => {
    const params = parseSearchParams(new URLSearchParams(`lat=${c.lat}&lng=${c.lng}&radius=${radiusMi}mi&size=20`));
    return { label: `${c.name}, ${c.state} ${radiusMi} mi`, params, routed: planRouted(router, params), all: planAll(router) };
  });
