/**
 * GET /api/documents/:id: where a document is, against where the boundary file puts it
 * (documents.ts documentAnswer), after the guards every endpoint passes (guards.ts admit). 404 when no shard holds the id.
 */
import { documentAnswer } from '../documentCopies.ts';
import { parseWriteId } from '../wire.ts';
import type { ApiContext } from './context.ts';
import { errorResult, invalid, safeDecode, type ApiResult } from './http.ts';
import { boundaryHead, unusable } from './load.ts';

/** documentEndpoint answers GET /api/documents/:id (`rawId` still percent-encoded). Refused like a search when the index drifted. */
export async function documentEndpoint(api: ApiContext, rawId: string): Promise<ApiResult> {
  let id: string;
  try {
    id = parseWriteId('id', safeDecode(rawId));
  } catch (e) {
    return invalid(e);
  }
  const l = api.routing();
  if ('error' in l) return unusable(l);
  const head = boundaryHead(l.router.file);
  try {
    // The same checks as every endpoint that reads the index; the copies are compared with the file's own placement.
    const admitted = await api.guards.admit(l, head, { pipeline: true });
    if ('refused' in admitted) return admitted.refused;
    const answer = await documentAnswer(api.client, l.router, id, l.config);
    if (!answer) return { httpStatus: 404, body: { status: 'not-found', ...head, error: { param: 'id', message: `no document with id ${JSON.stringify(id)} in index ${l.router.file.index} (searched on every shard)` } } };
    return { httpStatus: 200, body: { ...head, ...answer } };
  } catch (e) {
    return errorResult(head, e, api.client.url);
  }
}
