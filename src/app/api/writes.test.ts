/**
 * The write side of the live API's browser client: answers read
 * defensively, refusals with the server's message and the field at fault
 * (the 400s made by the server's own body validator), and the requests sent.
 */
import { describe, it, expect } from 'vitest';
import { parseRestaurantBody, parseWriteId, WRITE_ID_RE, type WriteAnswer } from '../../server/wire';
import { mulberry32 } from '../../core/testutil';
import { readWrite, putRestaurant, deleteRestaurant, newRestaurantId, restaurantUrl, PRICE_LEVELS } from './writes';

const ANSWER: WriteAnswer = {
  status: 'written',
  kind: 'restaurant',
  id: 'ui-abc',
  restaurantId: 'ui-abc',
  location: { lat: 37.7749, lng: -122.4194 },
  cell: '808581',
  core: { name: 'golf', shard: 7 },
  owners: [{ name: 'golf', shard: 7, role: 'read' }],
  acknowledged: [{ routing: 'golf', shard: 7, node: 'node-1', result: 'created' }],
  dishes: 0,
  epoch: null,
};

/** The 400 the server sends for a body: the message and field of its own validator. */
function refusalOf(body: unknown): { status: 'invalid'; error: { param: string; message: string } } {
  try {
    parseRestaurantBody(body);
  } catch (e) {
    return { status: 'invalid', error: { param: (e as { param: string }).param, message: (e as Error).message } };
  }
  throw new Error('the body was valid');
}

describe('readWrite', () => {
  it('reads a written answer, one owner or two', () => {
    expect(readWrite(200, JSON.parse(JSON.stringify(ANSWER)))).toEqual({ ok: true, value: ANSWER });
    const two = { ...ANSWER, owners: [...ANSWER.owners, { name: 'hotel', shard: 8, role: 'write' }], acknowledged: [...ANSWER.acknowledged, { routing: 'hotel', shard: 8, node: null, result: 'created' }], epoch: 4 };
    const r = readWrite(200, two);
    expect(r.ok && r.value.owners.map((o) => o.role)).toEqual(['read', 'write']);
    expect(r.ok && r.value.epoch).toBe(4);
  });

  it('names the field of a 400 in the message, as the server’s validator does', () => {
    for (const [body, param] of [
      [{ name: '', lat: 1, lng: 2 }, 'name'],
      [{ name: 'x', lat: 95, lng: 2 }, 'lat'],
      [{ name: 'x', lat: 1, lng: 2, price_level: 9 }, 'price_level'],
      [{ name: 'x', lat: 1, lng: 2, cuisines: ['martian'] }, 'cuisines'],
      [{ name: 'x', lat: 1, lng: 2, stars: 5 }, 'stars'],
    ] as const) {
      const r = readWrite(400, refusalOf(body));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.failure).toMatchObject({ kind: 'invalid', httpStatus: 400, param });
        expect(r.failure.message).toContain(param);
      }
    }
    // A server message that does not name the field gets it in front.
    const r = readWrite(400, { status: 'invalid', error: { param: 'lat', message: 'out of range' } });
    expect(!r.ok && r.failure.message).toBe('lat: out of range');
  });

  it('maps every refusal to its kind, with the server’s message or a fallback that says what to do', () => {
    const forbidden = readWrite(403, { status: 'forbidden', error: { message: 'writes are disabled: start the server with GEOSHARD_WRITES=1' } });
    expect(!forbidden.ok && forbidden.failure).toMatchObject({ kind: 'forbidden', httpStatus: 403, message: expect.stringContaining('GEOSHARD_WRITES=1') });
    const bare = readWrite(403, { status: 'forbidden', error: {} });
    expect(!bare.ok && bare.failure.message).toContain('GEOSHARD_WRITES=1');
    const busy = readWrite(429, { status: 'busy', error: { message: 'range 2 is in its cutover window' } }, '2');
    expect(!busy.ok && busy.failure).toMatchObject({ kind: 'busy', retryAfterS: 2, message: 'range 2 is in its cutover window' });
    expect(!readWrite(404, { status: 'not-found', error: { message: 'no restaurant x' } }).ok).toBe(true);
    for (const [status, kind] of [['not-found', 'not-found'], ['drift', 'drift'], ['unavailable', 'unavailable'], ['error', 'error']] as const) {
      const r = readWrite(status === 'drift' ? 409 : 503, { status, error: { message: 'm' } });
      expect(!r.ok && r.failure.kind, status).toBe(kind);
    }
  });

  it('tells a server without the write API, and answers of another shape, from answers', () => {
    expect(readWrite(404, undefined)).toMatchObject({ ok: false, failure: { kind: 'not-mounted' } });
    expect(readWrite(502, undefined)).toMatchObject({ ok: false, failure: { kind: 'bad-response' } });
    const { acknowledged: _a, ...noAcks } = ANSWER;
    expect(readWrite(200, noAcks)).toMatchObject({ ok: false, failure: { kind: 'bad-response', message: expect.stringContaining('acknowledged') } });
    expect(readWrite(200, { ...ANSWER, owners: [] })).toMatchObject({ ok: false, failure: { kind: 'bad-response', message: expect.stringContaining('owners') } });
    expect(readWrite(200, { ...ANSWER, status: 'maybe' })).toMatchObject({ ok: false, failure: { kind: 'bad-response' } });
  });
});

describe('the write requests', () => {
  it('makes ids the server accepts', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 200; i++) {
      const id = newRestaurantId(rand);
      expect(id).toMatch(WRITE_ID_RE);
      expect(parseWriteId('id', id)).toBe(id);
    }
    expect(() => restaurantUrl('a/b')).toThrow(/id "a\/b" is invalid/);
    expect(PRICE_LEVELS).toEqual([1, 2, 3, 4]);
  });

  it('sends PUT with a JSON body and DELETE without one, and reads their answers', async () => {
    const seen: { url: string; method?: string; body?: unknown; type: string | null }[] = [];
    const f = (async (url: string, init: RequestInit) => {
      seen.push({ url, method: init.method, body: init.body, type: new Headers(init.headers).get('content-type') });
      return new Response(JSON.stringify(ANSWER), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    const signal = new AbortController().signal;
    expect(await putRestaurant('ui-abc', { name: 'A', lat: 1, lng: 2 }, signal, f)).toEqual({ ok: true, value: ANSWER });
    expect(await deleteRestaurant('ui-abc', signal, f)).toMatchObject({ ok: true });
    expect(seen).toEqual([
      { url: '/api/restaurants/ui-abc', method: 'PUT', body: '{"name":"A","lat":1,"lng":2}', type: 'application/json' },
      { url: '/api/restaurants/ui-abc', method: 'DELETE', body: undefined, type: null },
    ]);
  });

  it('turns a refused connection into a network failure, and passes Retry-After on', async () => {
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    expect(await putRestaurant('x', { name: 'A', lat: 1, lng: 2 }, new AbortController().signal, down)).toMatchObject({ ok: false, failure: { kind: 'network' } });
    const busy = (async () => new Response(JSON.stringify({ status: 'busy', error: { message: 'cutover' } }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' } })) as unknown as typeof fetch;
    expect(await deleteRestaurant('x', new AbortController().signal, busy)).toMatchObject({ ok: false, failure: { kind: 'busy', retryAfterS: 1 } });
  });
});
