/**
 * The copy by this process (`--copy client`): every document of SRC read from
 * a point-in-time per shard (C shards at once), routed here by the rule of
 * DEST's routing pipeline (routeCopy: the core's Router, the stamped `cell`
 * and `shard`) and bulk-written past the pipeline (`pipeline: _none`: the
 * pipeline costs the node 1.2-2.2x the CPU); parents before children. A
 * finished shard is recorded in the state, so a killed copy copies only the
 * others again. Node only.
 */
import type { Router } from '../../core/index.ts';
import { NdjsonBytes } from '../../opensearch/bulk.ts';
import type { PipelineFields } from '../../opensearch/routingPipeline.ts';
import type { ReindexRun } from './reindexRun.ts';
import { progressMeter } from './progress.ts';
import { shardPages } from '../compare/shardReader.ts';
import { fmt, ReindexError, type Shape } from './state.ts';
import { bulkErrors, BULK_ERRORS_FILTER, LOAD_SETTINGS, RESTORED_SETTINGS, type BulkResponse } from '../../opensearch/bulk.ts';
import { cellOf, pointOf, fieldAt } from '../../opensearch/documentFields.ts';

const enc = encodeURIComponent;

/** The query for parents (a join's parent relations), children (the rest), or every document. */
function partQuery(shape: Shape, part: 'parents' | 'children' | 'all'): Record<string, unknown> {
  if (part === 'all' || !shape.join) return { match_all: {} };
  const parents = { terms: { [shape.join.field]: shape.join.parents } };
  return part === 'parents' ? parents : { bool: { must_not: [parents] } };
}

/** copyByClient copies SRC into DEST in this process, then moves the state to verifying. */
export async function copyByClient(run: ReindexRun): Promise<void> {
  const { client, src, dest, router, fields, info, o, say, batch, concurrency, result } = run;
  const save = () => run.save();
  await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: LOAD_SETTINGS } });
  const parts: ('parents' | 'children' | 'all')[] = info.shape.join ? ['parents', 'children'] : ['all'];
  const total = (await client.request<{ count: number }>('POST', `/${enc(src)}/_count`, { body: { query: { match_all: {} } } })).body.count;
  const meter = progressMeter('copy', total, say);
  let paused = false;
  let byPipeline = 0;
  for (const part of parts) {
    const todo = Array.from({ length: info.shards }, (_, k) => k).filter((k) => !run.state.copied.includes(`${part}:${k}`));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, todo.length) }, async () => {
        while (next < todo.length) {
          const k = todo[next++];
          let pending: Promise<unknown> | null = null;
          for await (const hits of shardPages(client, src, k, partQuery(info.shape, part), batch, true)) {
            // Routed here as DEST's pipeline would route it, and sent past the pipeline (`_none`);
            // a point only the pipeline reads goes through it (no routing: it routes or refuses).
            const out = new NdjsonBytes(1 << 20);
            for (const h of hits) {
              const r = routeCopy(router, fields, h._source ?? {});
              if (r) out.line(JSON.stringify({ index: { _index: dest, _id: h._id, routing: r.routing, pipeline: '_none' } })), out.line(JSON.stringify(r.source));
              else out.line(JSON.stringify({ index: { _index: dest, _id: h._id } })), out.line(JSON.stringify(h._source)), byPipeline++;
            }
            const body = out.bytes();
            // One bulk in flight per shard while the next page is read.
            await pending;
            pending = client
              .request<BulkResponse>('POST', '/_bulk', { body, query: { filter_path: BULK_ERRORS_FILTER }, timeoutMs: 300_000 })
              .then((res) => {
                const errs = bulkErrors(res.body);
                if (errs.length > 0) throw new ReindexError(`copying into "${dest}" failed for ${errs.length} of ${hits.length} documents: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
                meter.add(hits.length);
              });
            pending.catch(() => {});
            if (!paused && o.pause) {
              paused = true;
              await pending;
              await o.pause('copying');
            }
          }
          await pending;
          run.state = { ...run.state, copied: [...run.state.copied, `${part}:${k}`] };
          await save();
        }
      }),
    );
  }
  meter.line(true);
  if (byPipeline > 0) say(`copy: ${fmt(byPipeline)} documents have a point in a form only DEST's pipeline reads (or none): sent through it`);
  result.copied = meter.done();
  result.copySeconds = meter.seconds();
  result.docsPerSecond = result.copied / Math.max(0.001, result.copySeconds);
  await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: RESTORED_SETTINGS } });
  run.state = { ...run.state, phase: 'verifying' };
  await save();
}

/**
 * copyPoint reads a location as DEST's routing pipeline reads it, degrees: a
 * { lat, lon } object of numbers, a [lon, lat] array or a "lat,lon" string
 * (pointOf). Null for any other form (a GeoJSON Point, numbers as strings, a
 * longitude outside [-180, 180]): the pipeline decides those itself.
 */
function copyPoint(v: unknown): { lat: number; lng: number } | null {
  if (v && typeof v === 'object' && !Array.isArray(v) && (typeof (v as { lat?: unknown }).lat !== 'number' || typeof (v as { lon?: unknown }).lon !== 'number')) return null;
  return pointOf(v);
}

/**
 * routeCopy routes one document of the copy in the client, by the rule DEST's
 * routing pipeline runs (src/opensearch/routingPipeline.ts ROUTING_SCRIPT), so the
 * copy can skip the pipeline (`pipeline: '_none'`) and DEST holds what the
 * pipeline would have made: the point at `fields.location`, else (a join
 * child) at `fields.childLocation`, the copy of its parent's; the routing is
 * the read owner of its level-10 cell (the core's Router, as the pipeline's
 * table); a document found by `fields.location` gets `cell` (the level-10
 * token, documents.ts cellOf) and `shard` (the routing) when `fields.stamp`.
 * Null when the point is in a form only the pipeline reads, or absent (it
 * refuses it, naming the fields): send that document through the pipeline.
 * `source` is not changed (a stamped copy is a new object).
 */
export function routeCopy(router: Router, fields: PipelineFields, source: Record<string, unknown>): { routing: string; source: Record<string, unknown> } | null {
  let raw = fieldAt(source, fields.location);
  let child = false;
  if (raw == null && fields.childLocation) (raw = fieldAt(source, fields.childLocation)), (child = true);
  if (raw == null) return null;
  const p = copyPoint(raw);
  if (!p) return null;
  const routing = router.readShard(p.lat, p.lng).name;
  return { routing, source: !child && fields.stamp ? { ...source, cell: cellOf(p.lat, p.lng), shard: routing } : source };
}


