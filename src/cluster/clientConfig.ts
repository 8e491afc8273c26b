/**
 * Where and how to reach OpenSearch: the connection's settings (OpenSearchConfig), read from the
 * environment (configFromEnv: URL, credentials, API key, CA, deadline), and how its trust is
 * named in messages. Node only (reads the environment and files' paths). Credentials never appear
 * in messages (redactUrl).
 */
import { readFileSync } from 'node:fs';
import { redactUrl } from './redact.ts';

/** Where and how to reach OpenSearch. */
export interface OpenSearchConfig {
  /** Base URL without credentials or trailing slash, e.g. "http://127.0.0.1:9200". */
  url: string;
  /** Basic authentication, or undefined for none. */
  auth?: { username: string; password: string };
  /** An API key sent as `Authorization: ApiKey <key>` (instead of basic). */
  apiKey?: string;
  /** Default deadline of one request in milliseconds, > 0. */
  timeoutMs: number;
  /**
   * A PEM file of the CA(s) to trust for an https URL, instead of the system's CAs (OPENSEARCH_CA).
   * The node's host name is verified against its certificate either way.
   */
  caFile?: string;
  /** Accept any certificate and host name (OPENSEARCH_INSECURE=1): never the default; warned about on every run. */
  insecure?: boolean;
}

/** The warning printed (stderr) by every client made with `insecure`. */
export const INSECURE_WARNING =
  'geoshard: WARNING: OPENSEARCH_INSECURE=1: the OpenSearch node\'s TLS certificate and host name are NOT verified; anyone between here and the node can read and change the traffic, credentials included. Give the node\'s CA with OPENSEARCH_CA=/path/ca.pem instead.';

/** Default deadline of one request (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * configFromEnv reads the connection from the environment:
 *   OPENSEARCH_URL       base URL (default http://127.0.0.1:$OPENSEARCH_PORT, port 9200), as
 *                        `npm run cluster:start` serves it; user:password@ in the URL becomes
 *                        basic authentication and is removed from the URL
 *   OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD   basic authentication
 *   OPENSEARCH_API_KEY   "ApiKey" authentication (instead of basic)
 *   OPENSEARCH_TIMEOUT_MS  deadline of one request (default 10000)
 *   OPENSEARCH_CA        a PEM file of the CA(s) that signed the node's certificate (https
 *                        URLs; default: the system's CAs); the host name is always verified
 *   OPENSEARCH_INSECURE  "1": no certificate or host name verification (warned on every run)
 * Throws an Error naming the variable when a value is invalid.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): OpenSearchConfig {
  const raw = env.OPENSEARCH_URL?.trim() || `http://127.0.0.1:${env.OPENSEARCH_PORT?.trim() || '9200'}`;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`OPENSEARCH_URL ${JSON.stringify(redactUrl(raw))} is not a URL: expected e.g. "http://127.0.0.1:9200" or "https://search.example.com"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`OPENSEARCH_URL uses ${parsed.protocol.replace(':', '')}: expected an http or https URL`);
  }
  let username = decodeURIComponent(parsed.username);
  let password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  if (env.OPENSEARCH_USERNAME) username = env.OPENSEARCH_USERNAME;
  if (env.OPENSEARCH_PASSWORD !== undefined && env.OPENSEARCH_PASSWORD !== '') password = env.OPENSEARCH_PASSWORD;
  const timeoutMs = env.OPENSEARCH_TIMEOUT_MS === undefined || env.OPENSEARCH_TIMEOUT_MS === '' ? DEFAULT_TIMEOUT_MS : Number(env.OPENSEARCH_TIMEOUT_MS);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`OPENSEARCH_TIMEOUT_MS ${JSON.stringify(env.OPENSEARCH_TIMEOUT_MS)} is invalid: expected a positive number of milliseconds`);
  }
  const url = parsed.toString().replace(/\/+$/, '');
  const tls: Pick<OpenSearchConfig, 'caFile' | 'insecure'> = {};
  const ca = env.OPENSEARCH_CA?.trim();
  if (ca) {
    try {
      const pem = readFileSync(ca, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('it holds no PEM certificate ("-----BEGIN CERTIFICATE-----")');
    } catch (e) {
      throw new Error(`OPENSEARCH_CA ${JSON.stringify(ca)} cannot be used: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}: expected a PEM file of the CA that signed the node's certificate`);
    }
    tls.caFile = ca;
  }
  const insecure = env.OPENSEARCH_INSECURE?.trim();
  if (insecure !== undefined && insecure !== '' && insecure !== '0') {
    if (insecure !== '1') throw new Error(`OPENSEARCH_INSECURE ${JSON.stringify(insecure)} is invalid: expected 1 (no TLS verification) or 0`);
    tls.insecure = true;
  }
  if (env.OPENSEARCH_API_KEY) return { url, apiKey: env.OPENSEARCH_API_KEY, timeoutMs, ...tls };
  return username ? { url, auth: { username, password }, timeoutMs, ...tls } : { url, timeoutMs, ...tls };
}

/** Where the client's trust comes from, for messages: the CA file, or "the system's CAs". */
export function trustSource(config: Pick<OpenSearchConfig, 'caFile' | 'insecure'>): string {
  if (config.insecure) return 'no verification (OPENSEARCH_INSECURE=1)';
  return config.caFile ? `the CA file ${config.caFile} (OPENSEARCH_CA)` : "the system's CAs (OPENSEARCH_CA is not set)";
}
