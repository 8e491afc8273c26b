/**
 * The search box's document lookup: GET /api/documents/:id (src/server/documentCopies.ts), its
 * answer read into DocumentAnswer or a sentence saying why there is none.
 */
import type { DocumentAnswer, DocumentCopy } from '../../server/wire';
import { isObj } from './read';

/** A lookup's outcome: the answer, or a message for the box. */
export type DocLookup = { ok: true; doc: DocumentAnswer } | { ok: false; message: string };


/** readDocument reads an answer of GET /api/documents/:id (HTTP status and parsed body). */
export function readDocument(httpStatus: number, body: unknown): DocLookup {
  const error = isObj(body) && isObj(body.error) && typeof body.error.message === 'string' ? body.error.message : null;
  if (httpStatus !== 200) return { ok: false, message: error ?? `the live API answered HTTP ${httpStatus}` };
  if (!isObj(body) || body.status !== 'found' || !isObj(body.location) || !isObj(body.file) || !Array.isArray(body.copies) || typeof body.cell !== 'string') {
    return { ok: false, message: 'the live API’s answer has no document location, cell, file shard and copies: is the server older than the explorer?' };
  }
  const loc = body.location as { lat: unknown; lng: unknown };
  const file = body.file as { name: unknown; shard: unknown };
  const copies: DocumentCopy[] = body.copies.filter(isObj).map((c) => ({
    shard: typeof c.shard === 'number' ? c.shard : -1,
    name: typeof c.name === 'string' ? c.name : null,
    routing: typeof c.routing === 'string' ? c.routing : null,
    agrees: c.agrees === true,
  }));
  return {
    ok: true,
    doc: {
      status: 'found',
      index: String(body.index ?? ''),
      id: String(body.id ?? ''),
      kind: typeof body.kind === 'string' ? body.kind : null,
      location: { lat: Number(loc.lat), lng: Number(loc.lng) },
      cell: body.cell,
      file: { name: String(file.name ?? ''), shard: Number(file.shard) },
      copies,
      agrees: copies.length > 0 && copies.every((c) => c.agrees),
    },
  };
}

/** lookupDocument asks the live API where a document is. Never rejects: a network failure is a message. */
export async function lookupDocument(id: string, signal?: AbortSignal, base = '/api/documents/'): Promise<DocLookup> {
  let res: Response;
  try {
    res = await fetch(base + encodeURIComponent(id), { signal, headers: { accept: 'application/json' } });
  } catch (e) {
    return { ok: false, message: `the live API did not answer (${(e as Error).message}): is the explorer's server running?` };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    return { ok: false, message: `the live API answered HTTP ${res.status} without JSON` };
  }
  return readDocument(res.status, body);
}
