/**
 * What the package's functions need of an OpenSearch client: the official client's
 * `transport.request` (one HTTP request, its status and parsed body). The official `Client`
 * (@opensearch-project/opensearch) is one, as it is; geoshard's own connection
 * (src/cluster/client.ts OpenSearchClient) is another, so the CLI and the live API run the same
 * functions through their deadlines and error messages. Types only: no Node imports.
 */

/** One request: the method, the path (from the root, e.g. `/dishes/_mapping`), query parameters and a JSON body (or an NDJSON one as `bulkBody`). */
export interface TransportRequest {
  method: string;
  path: string;
  // `any`, as the official client types them: its Client must be a TransportClient as it is.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  querystring?: Record<string, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  bulkBody?: any;
}

/** Per-request options: statuses that are answers rather than errors (`ignore`), and the request's deadline in ms. */
export interface TransportOptions {
  ignore?: number[];
  requestTimeout?: number;
}

/**
 * TransportClient: a client whose `transport.request` sends one request and resolves to its
 * status and parsed body, or rejects with an error whose `meta.statusCode` and `meta.body` are
 * OpenSearch's answer (the official client's ResponseError has them; so does geoshard's
 * OpenSearchError).
 */
export interface TransportClient {
  transport: {
    request(params: TransportRequest, options?: TransportOptions): PromiseLike<{ statusCode: number | null; body: unknown }>;
  };
}

/** statusOfError returns the HTTP status a failed request answered with (the error's `meta.statusCode`), or undefined when nothing answered. */
export function statusOfError(e: unknown): number | undefined {
  const s = (e as { meta?: { statusCode?: unknown } } | null)?.meta?.statusCode;
  return typeof s === 'number' ? s : undefined;
}
