/**
 * The live API's status client (status.ts), checked against the server itself: answers are
 * produced by the real LiveApi (src/server/api.ts) over an OpenSearch client whose replies are
 * written in OpenSearch's REST format (scripted.testing.ts), or over a real connection to a
 * closed port (requestJson, request.ts).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router, cellAt, cellOrdinal, CELL_COUNT, KM_PER_MILE } from '../../core/index';
import { fileWithCuts } from '../../core/testutil';
import { parseSearchParams, routingKeyOf, type StatusAnswer } from '../../server/wire';
import { LiveApi } from '../../server/api';
import { OpenSearchClient, type RequestOptions } from '../../cluster/client';
import { ScriptedClient, mapping, type Reply } from './scripted.testing';
import { liveSearchUrl, liveSearchParams, readSearch, fetchSearch, sideStatus, redactUrl, type LiveQuery } from './search';
import { readStatus, describeStatus, liveNoun } from './status';
import { requestJson, type LiveFailure } from './request';
import { NO_FILTERS } from './filters';

const SF = { lat: 37.7749, lng: -122.4194 };
const sfOrdinal = cellOrdinal(cellAt(SF.lat, SF.lng));
/** Three shards; the second starts at San Francisco's own cell, so a 15-mile circle there asks two of them. */
const FILE = fileWithCuts([sfOrdinal, Math.floor(CELL_COUNT * 0.9)], 'dishes');
const router = new Router(FILE);

/** A local URL nothing listens on (a port just released): connections to it are refused. */
let closedUrl = '';
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((r) => server.close(() => r()));
});

const query = (over: Partial<LiveQuery> = {}): LiveQuery => ({ centre: SF, radius: { value: 15, unit: 'mi' }, noLocation: false, filters: NO_FILTERS, size: 20, ...over });
const serverParse = (url: string) => parseSearchParams(new URL(url, 'http://x').searchParams);

describe('readStatus and describeStatus', () => {
  async function status(reply: (method: string, path: string, opts: RequestOptions) => Reply) {
    const api = new LiveApi({ file: FILE, client: new ScriptedClient(reply) });
    const r = await api.status();
    return readStatus(r.httpStatus, JSON.parse(JSON.stringify(r.body)));
  }
  const cluster = (method: string, path: string): Reply | null => {
    if (path === '/') return { status: 200, body: { cluster_name: 'c', version: { number: '2.19.3', distribution: 'opensearch' } } };
    if (path === '/_cluster/health') return { status: 200, body: { status: 'green', number_of_nodes: 1 } };
    if (path.endsWith('/_count')) return { status: 200, body: { count: 5 } };
    if (path.startsWith('/_cat/shards')) return { status: 200, body: [] };
    return null;
  };

  it('reports a healthy node and an index matching the boundary file', async () => {
    const s = await status((m, p) => cluster(m, p) ?? mapping(FILE.hash));
    if (!s.ok) throw new Error(s.failure.message);
    expect(s.value.connection).toMatchObject({ up: true, version: '2.19.3', health: 'green', nodes: 1 });
    expect(s.value.drift?.status).toBe('ok');
    const v = describeStatus(s.value, { hash: FILE.hash, routing: routingKeyOf(FILE) });
    expect(v.level).toBe('ok');
    expect(v.detail).toContain(FILE.hash.slice(0, 12));
    expect(v.command).toBeNull();
  });

  it('says a node that does not answer is down and how to start it', async () => {
    const api = new LiveApi({ file: FILE, client: new OpenSearchClient({ url: closedUrl, timeoutMs: 2000 }) });
    const r = await api.status();
    const s = readStatus(r.httpStatus, JSON.parse(JSON.stringify(r.body)));
    if (!s.ok) throw new Error(s.failure.message);
    const v = describeStatus(s.value, { hash: FILE.hash, routing: routingKeyOf(FILE) });
    expect(v).toMatchObject({ level: 'error', state: 'down', command: 'npm run cluster:start' });
    expect(v.headline).toContain(closedUrl);
  });

  it('says a missing index must be seeded', async () => {
    const s = await status((m, p) => cluster(m, p) ?? { status: 404, body: {} });
    if (!s.ok) throw new Error(s.failure.message);
    expect(describeStatus(s.value, { hash: FILE.hash, routing: routingKeyOf(FILE) })).toMatchObject({ level: 'error', state: 'missing-index', command: 'npx geoshard seed' });
  });

  it('names both hashes on drift', async () => {
    const other = '0123456789abcdef'.repeat(4);
    const s = await status((m, p) => cluster(m, p) ?? mapping(other, 3));
    if (!s.ok) throw new Error(s.failure.message);
    const v = describeStatus(s.value, { hash: FILE.hash, routing: routingKeyOf(FILE) });
    expect(v.state).toBe('drift');
    expect(v.headline).toContain(other.slice(0, 12));
    expect(v.headline).toContain(FILE.hash.slice(0, 12));
    expect(v.detail).toContain(other);
    expect(v.detail).toContain(FILE.hash);
  });

  it('warns when the globe shows another boundary file than the API routes with', async () => {
    const s = await status((m, p) => cluster(m, p) ?? mapping(FILE.hash));
    if (!s.ok) throw new Error(s.failure.message);
    // Another file that routes differently (one boundary moved): the routed shards would differ.
    const moved = fileWithCuts([sfOrdinal + 4096, Math.floor(CELL_COUNT * 0.9)], 'dishes');
    expect(describeStatus(s.value, { hash: 'a'.repeat(64), routing: routingKeyOf(moved) }).state).toBe('other-file');
  });

  it('does not warn when the globe’s file routes exactly as the API’s (the same boundaries written for another index)', async () => {
    const s = await status((m, p) => cluster(m, p) ?? mapping(FILE.hash));
    if (!s.ok) throw new Error(s.failure.message);
    const v = describeStatus(s.value, { hash: 'a'.repeat(64), routing: routingKeyOf(fileWithCuts([sfOrdinal, Math.floor(CELL_COUNT * 0.9)], 'elsewhere')) });
    expect(v.state).toBe('up');
    expect(v.detail).toContain(FILE.hash.slice(0, 12));
  });

  it('never lets credentials of the node URL into the page', () => {
    expect(redactUrl('https://elastic:s3cret@search.example.com:9200')).toBe('https://search.example.com:9200');
    const s = readStatus(200, { connection: { status: 'down', url: 'https://elastic:s3cret@search.example.com' }, boundary: {} });
    if (!s.ok) throw new Error(s.failure.message);
    expect(JSON.stringify(s.value)).not.toContain('s3cret');
  });

  it('reads the nodes (those that left, down) and every shard copy with its node and state', () => {
    const body = {
      connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'c', version: '2.19.6', distribution: 'opensearch', health: 'yellow', nodes: 2 } },
      boundary: { file: 'data/boundaries.json', index: 'dishes', hash: 'h', version: 1, numberOfShards: 2, shards: [] },
      nodes: [
        { id: 'A', name: 'n1', roles: ['data'], up: true },
        { id: 'B', name: 'n2', roles: [], up: false },
      ],
      index: {
        name: 'dishes',
        exists: true,
        docs: { restaurants: 1, dishes: 2, total: 3 },
        sample: null,
        shards: [],
        copies: [
          { shard: 0, name: 'alpha', primary: true, state: 'STARTED', node: { id: 'A', name: 'n1' }, docs: 7 },
          { shard: 0, name: 'alpha', primary: false, state: 'INITIALIZING', node: { id: 'A', name: 'n1' }, docs: null },
          { shard: 1, name: 'bravo', primary: true, state: 'UNASSIGNED', node: null, docs: null },
        ],
      },
      drift: null,
      limits: { minRadiusKm: 0.01, maxRadiusKm: 1000, maxSize: 100, defaultSize: 20, searchTimeoutMs: 5000 },
      vocabulary: { diets: [], allergens: [], cuisines: [] },
    } satisfies StatusAnswer;
    const s = readStatus(200, body);
    if (!s.ok) throw new Error(s.failure.message);
    expect(s.value.nodes).toEqual(body.nodes);
    expect(s.value.copies).toEqual(body.index.copies);
    const old = readStatus(200, { connection: { status: 'up', url: 'x' }, boundary: {} });
    if (!old.ok) throw new Error(old.failure.message);
    expect(old.value.nodes).toBeNull();
    expect(old.value.copies).toBeNull();
  });

  it('says the API is not served when /api/status answers with the page', () => {
    const s = readStatus(200, undefined);
    expect(s.ok).toBe(false);
    if (!s.ok) expect(s.failure.kind).toBe('not-mounted');
  });
});

describe('requestJson', () => {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

  it('returns the status and JSON body, and no body for HTML', async () => {
    const ctl = new AbortController();
    expect(await requestJson('/api/status', ctl.signal, async () => json({ a: 1 }, 503))).toEqual({ httpStatus: 503, body: { a: 1 } });
    const html = async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } });
    expect(await requestJson('/api/status', ctl.signal, html)).toEqual({ httpStatus: 200, body: undefined });
  });

  it('maps a refused connection to a network failure', async () => {
    const r = await fetchSearch(`${closedUrl}/api/search`, new AbortController().signal);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure).toMatchObject({ kind: 'network', httpStatus: null });
  });

  it('gives up at its deadline with a timeout failure', async () => {
    const hang = (_u: unknown, init?: RequestInit) => new Promise<Response>((_r, reject) => init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    await expect(requestJson('/api/search', new AbortController().signal, hang as typeof fetch, 50)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('rethrows the abort of a stale request instead of reporting a failure', async () => {
    const ctl = new AbortController();
    const hang = (_u: unknown, init?: RequestInit) => new Promise<Response>((_r, reject) => init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const p = fetchSearch('/api/search', ctl.signal, hang as typeof fetch);
    ctl.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

