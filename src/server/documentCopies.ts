/**
 * Where a document is, against where the boundary file puts it (GET /api/documents/:id).
 *
 * The id is searched on every shard (no routing: a misrouted copy must be found too), with
 * `explain` so each hit names the shard that holds it. The document's location is the one it
 * is placed by, as the index config names it (its `location`, or a child's copy of its parent's,
 * `join.childLocation`: the sample's `location` and `restaurant_location`); the core routes that
 * location to its level-10 cell and the file's shard; every copy found is compared with it.
 */
import type { Router } from '../core/index.ts';
import type { OpenSearchClient } from '../cluster/client.ts';
import type { IndexConfig } from '../opensearch/indexConfig.ts';
import type { DocumentAnswer, DocumentCopy } from './wire.ts';
import { fieldAt, pointOf, type Source } from '../opensearch/documentFields.ts';

/** locationFields returns the fields a document of the config's index may be placed by, in the order they are tried. */
export function locationFields(config: Pick<IndexConfig, 'location' | 'join'>): string[] {
  return [config.location, ...(config.join ? [config.join.childLocation] : [])];
}

/** How many copies of one id are read at most (more than two means something is badly wrong; the answer lists these). */
const MAX_COPIES = 10;

type Hit = { _id: string; _shard?: string; _routing?: string; _source?: Source };

/**
 * documentAnswer finds the document `id` in the router's index on every shard and says where
 * it is and where the file puts it; null when no shard holds it. Rejects with the client's
 * OpenSearchError when the engine refuses, and with an Error when the document has no location.
 */
export async function documentAnswer(client: OpenSearchClient, router: Router, id: string, config: Pick<IndexConfig, 'location' | 'join'>): Promise<Omit<DocumentAnswer, 'index'> | null> {
  const index = router.file.index;
  const fields = locationFields(config);
  const res = await client.request<{ hits: { hits: Hit[] } }>('POST', `/${encodeURIComponent(index)}/_search`, {
    body: { size: MAX_COPIES, explain: true, _source: [...fields, ...(config.join ? [config.join.field] : [])], query: { ids: { values: [id] } } },
  });
  const hits = res.body.hits.hits;
  if (hits.length === 0) return null;
  const source = hits[0]._source ?? {};
  const field = fields.find((f) => pointOf(fieldAt(source, f)));
  if (!field) throw new Error(`document ${JSON.stringify(id)} has no location: none of ${fields.join(', ')} holds a geo_point`);
  const location = pointOf(fieldAt(source, field))!;
  // The join relation's name (a string, or { name, parent } for a child), when the index has a join.
  const relation = config.join ? fieldAt(source, config.join.field) : undefined;
  const kind = typeof relation === 'string' ? relation : relation && typeof relation === 'object' && typeof (relation as { name?: unknown }).name === 'string' ? (relation as { name: string }).name : null;
  const placed = router.route(location.lat, location.lng);
  const nameOf = new Map(router.shards.map((s) => [s.shard, s.name]));
  const copies: DocumentCopy[] = hits.map((h) => {
    const m = /\]\[(\d+)\]$/.exec(h._shard ?? '');
    const shard = m ? Number(m[1]) : -1;
    return { shard, name: nameOf.get(shard) ?? null, routing: h._routing ?? null, agrees: shard === placed.shard };
  });
  return {
    status: 'found',
    id,
    kind,
    location,
    cell: placed.token,
    file: { name: placed.name, shard: placed.shard },
    copies,
    agrees: copies.every((c) => c.agrees),
  };
}
