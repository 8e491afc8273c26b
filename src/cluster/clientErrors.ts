/**
 * What went wrong with a request to OpenSearch: OpenSearchError (which request, where, why, and
 * for an answered one its status, type and body), and how the official client's errors become
 * one (toOpenSearchError), with a message that says what to do: the credentials refused, a
 * privilege missing (privileges.ts), a TLS certificate not trusted, nothing answering.
 */
import { redactUrl } from './redact.ts';
import { privilegeMessage } from './privileges.ts';
import { trustSource, type OpenSearchConfig } from './clientConfig.ts';

/** The official client's error classes toOpenSearchError tells apart (the client's module is loaded on first use: client.ts). */
export interface OfficialErrors {
  TimeoutError: abstract new (...a: never[]) => Error;
  ResponseError: abstract new (...a: never[]) => Error & { meta: { statusCode?: number | null; body?: unknown } };
  DeserializationError: abstract new (...a: never[]) => Error & { data?: unknown };
  ConnectionError: abstract new (...a: never[]) => Error;
  NoLivingConnectionsError: abstract new (...a: never[]) => Error;
}

/** What went wrong with a request. */
export type OpenSearchErrorKind =
  /** Nothing answered: connection refused, DNS failure, reset. */
  | 'unreachable'
  /** The node answered with a TLS certificate that is not trusted, or not for its host name. */
  | 'tls'
  /** The request's deadline passed before the response arrived. */
  | 'timeout'
  /** OpenSearch answered with a status >= 400. */
  | 'http'
  /** OpenSearch answered 2xx with a body that is not JSON. */
  | 'bad-response';

/**
 * OpenSearchError says which request failed (method, path without
 * credentials, base URL) and why; for `http` errors it carries the status and
 * OpenSearch's error type and reason.
 */
export class OpenSearchError extends Error {
  constructor(
    message: string,
    readonly kind: OpenSearchErrorKind,
    readonly method: string,
    readonly path: string,
    readonly status?: number,
    /** OpenSearch's error.type, e.g. "index_not_found_exception". */
    readonly type?: string,
    /** The parsed error body, when OpenSearch sent one. */
    readonly body?: unknown,
  ) {
    super(redactUrl(message));
    this.name = 'OpenSearchError';
  }

  /** The official client's shape of an answered error (`meta.statusCode`, `meta.body`), so the package's functions read both alike (src/opensearch/transport.ts). */
  get meta(): { statusCode?: number; body?: unknown } {
    return { statusCode: this.status, body: this.body };
  }

  /** True when nothing answered in time: the cluster is down, unreachable or too slow. */
  get unavailable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.status === 503 || this.noShardAnswered !== null;
  }

  /**
   * noShardAnswered lists the shards of a search that failed as a whole
   * because none of the shards it asked had a copy to answer ("all shards
   * failed" with only unavailability reasons: a node stopped mid-search, a
   * shard unassigned), or null for any other error. OpenSearch answers those
   * with 500 while a node is leaving and 503 once the shard is unassigned; a
   * query OpenSearch refuses (a bad query) has other reasons and stays an
   * error.
   */
  get noShardAnswered(): { shard: number; node: string | null; reason: string }[] | null {
    if (this.type !== 'search_phase_execution_exception') return null;
    const err = (this.body as { error?: { failed_shards?: unknown } } | undefined)?.error;
    const failed = Array.isArray(err?.failed_shards) ? (err.failed_shards as { shard?: unknown; node?: unknown; reason?: { type?: unknown; reason?: unknown } }[]) : [];
    if (failed.length === 0) return this.status === 503 ? [] : null;
    if (!failed.every((f) => typeof f.reason?.type === 'string' && UNAVAILABLE_SHARD_REASONS.has(f.reason.type))) return null;
    return failed.map((f) => ({ shard: Number(f.shard), node: typeof f.node === 'string' ? f.node : null, reason: String(f.reason?.reason ?? f.reason?.type) }));
  }
}

/** Messages of Node's TLS verification failures (certificate chain, self-signed, expired, host name). */
const TLS_FAILURE = /certificate|self[- ]signed|CERT_|altnames|Hostname\/IP does not match|unable to get (local )?issuer/i;

/** OpenSearch failure types that mean a shard had no copy to answer, not that the query was wrong. */
const UNAVAILABLE_SHARD_REASONS = new Set([
  'no_shard_available_action_exception',
  'node_disconnected_exception',
  'node_not_connected_exception',
  'node_closed_exception',
  'connect_transport_exception',
  'send_request_transport_exception',
  'shard_not_found_exception',
  'unavailable_shards_exception',
  'index_shard_closed_exception',
  'illegal_index_shard_state_exception',
]);

/** toOpenSearchError maps the official client's errors to OpenSearchError with a message naming the request. */
export function toOpenSearchError(e: unknown, method: string, path: string, where: string, timeoutMs: number, config: OpenSearchConfig, errors: OfficialErrors): OpenSearchError {
  if (e instanceof errors.TimeoutError) {
    return new OpenSearchError(`OpenSearch did not answer ${where} within ${timeoutMs} ms`, 'timeout', method, path);
  }
  if (e instanceof errors.ResponseError) {
    const status = e.meta.statusCode ?? undefined;
    const body = e.meta.body as { error?: { type?: string; reason?: string; root_cause?: { reason?: string }[] } | string } | string | undefined;
    const err = typeof body === 'object' ? body?.error : undefined;
    const type = typeof err === 'object' ? err?.type : undefined;
    const reason = typeof err === 'object' ? (err?.reason ?? err?.root_cause?.[0]?.reason) : typeof err === 'string' ? err : typeof body === 'string' ? body.slice(0, 200) : undefined;
    if (status === 401) {
      const who = config.auth ? `user "${config.auth.username}" (OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD; the password is not shown)` : config.apiKey ? 'the API key (OPENSEARCH_API_KEY; not shown)' : 'no credentials (set OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD)';
      return new OpenSearchError(`OpenSearch at ${redactUrl(config.url)} refused the credentials of ${who}: 401 Unauthorized, for ${where}. Check the user name and password; nothing was changed.`, 'http', method, path, status, type ?? 'unauthorized', body);
    }
    if (status === 403) {
      const msg = privilegeMessage(reason ?? '', where);
      if (msg) return new OpenSearchError(msg, 'http', method, path, status, type, body);
    }
    return new OpenSearchError(`OpenSearch refused ${where}: ${status}${type ? ` ${type}` : ''}${reason ? `: ${reason}` : ''}`, 'http', method, path, status, type, body);
  }
  if (e instanceof errors.DeserializationError) {
    return new OpenSearchError(`OpenSearch answered ${where} with a body that is not JSON: ${String(e.data).slice(0, 200)}`, 'bad-response', method, path);
  }
  if (e instanceof errors.ConnectionError && TLS_FAILURE.test(e.message)) {
    const host = (() => {
      try {
        return new URL(config.url).host;
      } catch {
        return config.url;
      }
    })();
    const hostName = /altnames|Hostname\/IP does not match|ERR_TLS_CERT_ALTNAME/i.test(e.message);
    return new OpenSearchError(
      `OpenSearch at ${redactUrl(config.url)} answered, but its TLS certificate is not trusted: ${e.message} (for ${where}). ` +
        (hostName ? `The certificate is not made out for the host name "${host}": connect by a name the certificate lists. ` : '') +
        `Checked against ${trustSource(config)}. ` +
        `Give the CA that signed the node's certificate as a PEM file: OPENSEARCH_CA=/path/to/ca.pem` +
        (config.caFile ? ' (the one given did not sign it)' : '') +
        '. (OPENSEARCH_INSECURE=1 turns verification off, for a throwaway test node only.)',
      'tls',
      method,
      path,
    );
  }
  if (e instanceof errors.ConnectionError || e instanceof errors.NoLivingConnectionsError) {
    return new OpenSearchError(`OpenSearch is unreachable: ${where} failed: ${e.message}`, 'unreachable', method, path);
  }
  return new OpenSearchError(`OpenSearch request ${where} failed: ${(e as Error)?.message ?? String(e)}`, 'unreachable', method, path);
}
