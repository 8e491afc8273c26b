/**
 * For the API client's tests (search.test.ts, status.test.ts): a LiveApi (src/server/api.ts)
 * over an OpenSearch client whose replies are scripted here in OpenSearch's REST format.
 */
import { OpenSearchClient, type RequestOptions, type Response as OsResponse } from '../../cluster/client';

/** One scripted reply: a response, or an error the client throws. */
export type Reply = OsResponse<unknown> | Error;

/** An OpenSearch client whose replies come from a function of (method, path, options). */
export class ScriptedClient extends OpenSearchClient {
  readonly calls: { method: string; path: string; opts: RequestOptions }[] = [];
  constructor(private readonly reply: (method: string, path: string, opts: RequestOptions) => Reply) {
    super({ url: 'http://127.0.0.1:9200', timeoutMs: 2000 });
  }
  override async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<OsResponse<T>> {
    this.calls.push({ method, path, opts });
    const r = this.reply(method, path, opts);
    if (r instanceof Error) throw r;
    return r as OsResponse<T>;
  }
}

/** The index mapping reply: `_meta` with `hash` (none when null) and `version`, for an index `dishes` of 3 shards. */
export const mapping = (hash: string | null, version = 1) => ({ status: 200, body: { dishes: { mappings: hash === null ? {} : { _meta: { app: 'geoshard', hash, version, index: 'dishes', numberOfShards: 3 } } } } });
