/**
 * The reindex copy's client-side routing (reindex.ts routeCopy) against the real routing
 * pipeline: the same documents run through the pipeline on the node (`_ingest/pipeline/
 * _simulate` with the body `geoshard pipeline` installs: nothing is written to any index), and
 * the copy must send each with the routing the pipeline sets and the source the pipeline makes
 * (the stamped `cell` and `shard` of a parent included), so DEST holds what it would have held
 * through the pipeline. Points: 1,500 uniform on the sphere and 500 within ~10 cm of a
 * level-10 cell's corner (where a different order of operations would show), in every form the
 * pipeline reads; the forms only the pipeline reads are left to it (routeCopy null).
 */
import { describe, it, expect } from 'vitest';
import { Router, cellAt, type BoundaryFile } from '../../core/index.ts';
import { cellVertices } from '../../core/cells.ts';
import { mulberry32 } from '../../core/testutil.ts';
import { routingPipeline, SAMPLE_FIELDS, type PipelineFields } from '../../opensearch/routingPipeline.ts';
import { bundledFile, liveClient } from '../../testing/testkit.ts';
import { routeCopy } from './reindex.ts';

const client = liveClient();
const file: BoundaryFile = bundledFile();
const router = new Router(file);
const FLAT: PipelineFields = { location: 'geo', childLocation: null, stamp: false };

type Src = Record<string, unknown>;

/** simulate runs sources through the index's pipeline on the node: each one's _routing and _source (or its error). */
async function simulate(fields: PipelineFields, sources: Src[]): Promise<{ routing?: string; source?: Src; error?: unknown }[]> {
  const out: { routing?: string; source?: Src; error?: unknown }[] = [];
  for (let i = 0; i < sources.length; i += 500) {
    const { body } = await client.request<{ docs: { doc?: { _routing?: string; _source: Src }; error?: unknown }[] }>('POST', '/_ingest/pipeline/_simulate', {
      body: { pipeline: routingPipeline(file, null, 'rf-route', fields), docs: sources.slice(i, i + 500).map((s) => ({ _index: 'rf-route', _id: `d${i}`, _source: s })) },
      timeoutMs: 120_000,
    });
    out.push(...body.docs.map((d) => (d.doc ? { routing: d.doc._routing, source: d.doc._source } : { error: d.error })));
  }
  return out;
}

function points(): { lat: number; lng: number }[] {
  const rand = mulberry32(24);
  const out: { lat: number; lng: number }[] = [];
  for (let i = 0; i < 1500; i++) out.push({ lat: (Math.asin(2 * rand() - 1) * 180) / Math.PI, lng: rand() * 360 - 180 });
  // Within ~10 cm of a level-10 cell's corner (four cells meet there).
  for (let i = 0; i < 500; i++) {
    const v = cellVertices(cellAt((Math.asin(2 * rand() - 1) * 180) / Math.PI, rand() * 360 - 180))[i % 4];
    const j = () => (rand() - 0.5) * 2e-6;
    out.push({ lat: Math.max(-90, Math.min(90, v.lat + j())), lng: Math.max(-180, Math.min(180, v.lng + j())) });
  }
  return out;
}

/** expectSame checks routeCopy against the pipeline for every source. */
async function expectSame(fields: PipelineFields, sources: Src[]): Promise<void> {
  const got = await simulate(fields, sources);
  let wrong = 0;
  const shown: string[] = [];
  sources.forEach((s, i) => {
    const r = routeCopy(router, fields, s);
    const ok = r !== null && !got[i].error && r.routing === got[i].routing && JSON.stringify(sortKeys(r.source)) === JSON.stringify(sortKeys(got[i].source));
    if (!ok && (wrong++, shown.length < 3)) shown.push(`${JSON.stringify(s)}: copy ${JSON.stringify(r)}, pipeline ${JSON.stringify(got[i])}`);
  });
  expect(shown, `${wrong} of ${sources.length} differ`).toEqual([]);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Src)[k])]));
  return v;
}

describe('reindex copy routing (routeCopy) = the routing pipeline on the node', () => {
  const ps = points();

  it('restaurant sample: parents stamped with cell and shard (stale values replaced), children by restaurant_location', async () => {
    const sources: Src[] = [];
    ps.forEach((p, i) => {
      sources.push({ join: 'restaurant', id: `r${i}`, name: `R ${i}`, location: { lat: p.lat, lon: p.lng }, cell: i % 2 ? 'stale' : undefined, shard: i % 3 ? 'old-shard' : undefined, cuisines: ['thai'] });
      sources.push({ join: { name: 'dish', parent: `r${i}` }, id: `r${i}-d0`, restaurant_id: `r${i}`, restaurant: { id: `r${i}`, location: { lat: p.lat, lon: p.lng } }, restaurant_location: { lat: p.lat, lon: p.lng }, name: 'soup' });
    });
    // JSON has no undefined: what the node receives.
    await expectSame(SAMPLE_FIELDS, JSON.parse(JSON.stringify(sources)));
  }, 120_000);

  it('a flat index (places: geo, no stamp) in every form the pipeline reads: object, "lat,lon", [lon, lat]', async () => {
    const sources: Src[] = ps.map((p, i) => ({ name: `P ${i}`, geo: i % 3 === 0 ? { lat: p.lat, lon: p.lng } : i % 3 === 1 ? `${p.lat},${p.lng}` : [p.lng, p.lat] }));
    await expectSame(FLAT, sources);
  }, 120_000);

  it('forms only the pipeline reads, and no point, are left to the pipeline (null)', () => {
    for (const geo of [{ type: 'Point', coordinates: [2.35, 48.85] }, { lat: '48.85', lon: '2.35' }, [200, 10], '48.85,200', 'u09tvw', null]) expect(routeCopy(router, FLAT, { geo }), JSON.stringify(geo)).toBeNull();
    expect(routeCopy(router, FLAT, { name: 'no point' })).toBeNull();
  });
});
