import { describe, it, expect, afterEach } from 'vitest';
import { createServer, type Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenSearchClient, ADMIN_TIMEOUT_MS } from './client.ts';
import { redactUrl } from '../server/wire.ts';
import { configFromEnv, type OpenSearchConfig } from './clientConfig.ts';
import { OpenSearchError } from './clientErrors.ts';

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** serve starts a real HTTP server on a free local port and returns its URL. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** closedPort returns a local port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** authorizationSent returns the Authorization header a node receives from a client made with this config (its URL replaced by a local server). */
async function authorizationSent(config: OpenSearchConfig): Promise<string | undefined> {
  let seen: string | undefined = 'nothing received';
  const url = await serve((req, res) => {
    seen = req.headers.authorization;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new OpenSearchClient({ ...config, url }).get('/');
  return seen;
}

describe('configFromEnv', () => {
  it('defaults to the local node of npm run cluster:start', () => {
    expect(configFromEnv({}).url).toBe('http://127.0.0.1:9200');
    expect(configFromEnv({ OPENSEARCH_PORT: '9300' }).url).toBe('http://127.0.0.1:9300');
  });

  it('moves credentials out of the URL into a basic Authorization header', async () => {
    const c = configFromEnv({ OPENSEARCH_URL: 'https://admin:s%40cret@search.example.com:9200/' });
    expect(c.url).toBe('https://search.example.com:9200');
    expect(await authorizationSent(c)).toBe(`Basic ${Buffer.from('admin:s@cret').toString('base64')}`);
  });

  it('takes credentials from OPENSEARCH_USERNAME/PASSWORD, or an API key', async () => {
    expect(await authorizationSent(configFromEnv({ OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: 'p' }))).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(await authorizationSent(configFromEnv({ OPENSEARCH_API_KEY: 'k' }))).toBe('ApiKey k');
    expect(await authorizationSent(configFromEnv({}))).toBeUndefined();
  });

  it('names the variable when a value is invalid, without echoing credentials', () => {
    expect(() => configFromEnv({ OPENSEARCH_URL: 'not a url' })).toThrow(/OPENSEARCH_URL "not a url" is not a URL/);
    expect(() => configFromEnv({ OPENSEARCH_URL: 'ftp://x' })).toThrow(/OPENSEARCH_URL uses ftp/);
    expect(() => configFromEnv({ OPENSEARCH_TIMEOUT_MS: '-5' })).toThrow(/OPENSEARCH_TIMEOUT_MS "-5" is invalid/);
    expect(redactUrl('http://user:pw@h:1/x')).toBe('http://h:1/x');
    expect(redactUrl('GET / on https://u:p@h:9200 failed')).toBe('GET / on https://h:9200 failed');
  });
});

describe('OpenSearchClient', () => {
  it('sends JSON with the Authorization header and returns the parsed body', async () => {
    let seen: { auth?: string; type?: string; body: string; url?: string } | null = null;
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, type: req.headers['content-type'], body, url: req.url };
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const c = new OpenSearchClient({ url, auth: { username: 'u', password: 'p' }, timeoutMs: 2000 });
    const r = await c.request('POST', '/i/_search', { body: { size: 1 }, query: { routing: 'a,b', skip: undefined } });
    expect(r).toEqual({ status: 200, body: { ok: true } });
    expect(seen).toEqual({ auth: `Basic ${Buffer.from('u:p').toString('base64')}`, type: 'application/json', body: '{"size":1}', url: '/i/_search?routing=a%2Cb' });
  });

  it('reports a closed port as unreachable, naming the request and the URL', async () => {
    const port = await closedPort();
    const c = new OpenSearchClient({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
    const e = (await c.get('/_cluster/health').catch((x) => x)) as OpenSearchError;
    expect(e).toBeInstanceOf(OpenSearchError);
    expect(e.kind).toBe('unreachable');
    expect(e.unavailable).toBe(true);
    expect(e.message).toContain(`GET /_cluster/health on http://127.0.0.1:${port}`);
    expect(e.message).toContain('ECONNREFUSED');
  });

  it('gives up at the deadline and says so', async () => {
    const url = await serve(() => {
      /* never answers */
    });
    const c = new OpenSearchClient({ url, timeoutMs: 5000 });
    const e = (await c.get('/slow', { timeoutMs: 150 }).catch((x) => x)) as OpenSearchError;
    expect(e.kind).toBe('timeout');
    expect(e.message).toContain('did not answer GET /slow');
    expect(e.message).toContain('within 150 ms');
  });

  it('turns an OpenSearch error body into a message with status, type and reason', async () => {
    const url = await serve((_req, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'routing_missing_exception', reason: 'routing is required for [i]/[1]' }, status: 400 })),
    );
    const e = (await new OpenSearchClient({ url, timeoutMs: 2000 }).request('PUT', '/i/_doc/1', { body: {} }).catch((x) => x)) as OpenSearchError;
    expect(e.kind).toBe('http');
    expect(e.status).toBe(400);
    expect(e.type).toBe('routing_missing_exception');
    expect(e.message).toBe(`OpenSearch refused PUT /i/_doc/1 on ${url}: 400 routing_missing_exception: routing is required for [i]/[1]`);
  });

  it('calls a search no shard could answer unavailable, naming the shards, and keeps a refused query an error', async () => {
    // The shape of OpenSearch's SearchPhaseExecutionException JSON ("all shards failed"), as a
    // 2.19 node answered while the node holding the asked shard was stopping (HTTP 500).
    const allFailed = (type: string, status: number) => ({
      error: {
        root_cause: [{ type, reason: 'x' }],
        type: 'search_phase_execution_exception',
        reason: 'all shards failed',
        phase: 'query',
        grouped: true,
        failed_shards: [{ shard: 3, index: 'dishes', node: 'n2', reason: { type, reason: `[n2][127.0.0.1:9301] ${type}` } }],
      },
      status,
    });
    let body: unknown = null;
    let status = 500;
    const url = await serve((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
    const c = new OpenSearchClient({ url, timeoutMs: 2000 });
    body = allFailed('node_disconnected_exception', 500);
    const down = (await c.request('POST', '/dishes/_search', { body: {} }).catch((x) => x)) as OpenSearchError;
    expect(down.noShardAnswered).toEqual([{ shard: 3, node: 'n2', reason: '[n2][127.0.0.1:9301] node_disconnected_exception' }]);
    expect(down.unavailable).toBe(true);
    body = allFailed('query_shard_exception', 400);
    status = 400;
    const bad = (await c.request('POST', '/dishes/_search', { body: {} }).catch((x) => x)) as OpenSearchError;
    expect(bad.noShardAnswered).toBeNull();
    expect(bad.unavailable).toBe(false);
  });

  it('returns listed statuses as answers rather than errors', async () => {
    const url = await serve((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"index_not_found_exception"}}'));
    const r = await new OpenSearchClient({ url, timeoutMs: 2000 }).request('GET', '/x/_mapping', { okStatuses: [404] });
    expect(r.status).toBe(404);
  });

  it('gives a change of the cluster state a deadline past the client\'s and tells the engine how long to wait', async () => {
    const seen: string[] = [];
    // A busy master: the change is applied after 400 ms, past the client's 150 ms deadline.
    const url = await serve((req, res) => {
      seen.push(req.url ?? '');
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"acknowledged":true}'), 400);
    });
    const c = new OpenSearchClient({ url, timeoutMs: 150 });
    const plain = (await c.request('PUT', '/i/_settings', { body: {} }).catch((x) => x)) as OpenSearchError;
    expect(plain.kind).toBe('timeout');
    const r = await c.admin<{ acknowledged: boolean }>('PUT', '/i', { body: {}, query: { wait_for_active_shards: 1 } });
    expect(r.body.acknowledged).toBe(true);
    const q = new URL(seen[1], url).searchParams;
    expect(Object.fromEntries(q)).toEqual({ cluster_manager_timeout: '90s', timeout: '45s', wait_for_active_shards: '1' });
    // The engine's waits end before the client's deadline, so the engine answers first.
    expect(ADMIN_TIMEOUT_MS).toBeGreaterThan((90 + 45) * 1000);
    // A deadline or an engine wait given by the caller wins.
    const e = (await c.admin('DELETE', '/i', { timeoutMs: 100, query: { timeout: '5s' } }).catch((x) => x)) as OpenSearchError;
    expect(e.kind).toBe('timeout');
    expect(new URL(seen[2], url).searchParams.get('timeout')).toBe('5s');
  });

  it('never retries: a failing request reaches the server once', async () => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"type":"cluster_block_exception","reason":"blocked"}}');
    });
    const e = (await new OpenSearchClient({ url, timeoutMs: 2000 }).get('/').catch((x) => x)) as OpenSearchError;
    expect(e.unavailable).toBe(true);
    expect(hits).toBe(1);
  });
});

describe('the transport facade', () => {
  it('sends changes of the cluster state with the admin deadlines, and everything else as a plain request', async () => {
    const { isClusterStateChange } = await import('./client.ts');
    for (const [m, p] of [['PUT', '/dishes'], ['DELETE', '/dishes'], ['PUT', '/dishes/_mapping'], ['PUT', '/dishes/_settings'], ['PUT', '/_ingest/pipeline/geoshard-dishes'], ['DELETE', '/_search/pipeline/x'], ['POST', '/_aliases'], ['PUT', '/dishes/_alias/live']]) {
      expect(isClusterStateChange(m, p), `${m} ${p}`).toBe(true);
    }
    for (const [m, p] of [['GET', '/dishes'], ['HEAD', '/dishes'], ['POST', '/dishes/_search'], ['POST', '/_bulk'], ['POST', '/dishes/_bulk'], ['PUT', '/dishes/_doc/1'], ['GET', '/_ingest/pipeline/x'], ['POST', '/dishes/_refresh']]) {
      expect(isClusterStateChange(m, p), `${m} ${p}`).toBe(false);
    }
  });
});
