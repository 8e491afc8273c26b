/**
 * The write endpoints without a node: the bad-input table. Every request here
 * is refused (403 writes off, foreign Origin, a peer not on loopback; 400 a
 * missing or invalid field, an unknown key, a bad id or body; 405 a method the
 * path does not take) before any request reaches OpenSearch: the client fails
 * the test if asked. An unknown id needs the real node: writes.live.test.ts.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LiveApi, DEFAULT_BOUNDARIES_PATH, isLoopback } from './api.ts';
import { OpenSearchClient, type RequestOptions, type Response } from '../cluster/client.ts';
import { MAX_WRITE_BODY_BYTES, VOCABULARY } from './wire.ts';

/** A client that records any request and fails it: nothing here may reach OpenSearch. */
class NoNodeClient extends OpenSearchClient {
  asked: string[] = [];
  constructor() {
    super({ url: 'http://127.0.0.1:9', timeoutMs: 1000 });
  }
  override async request<T>(method: string, path: string, _opts?: RequestOptions): Promise<Response<T>> {
    this.asked.push(`${method} ${path}`);
    throw new Error(`no request may reach OpenSearch here: ${method} ${path}`);
  }
}

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { status?: string; error?: { param?: string; message?: string } };
}

/** send makes one HTTP request with raw control over the headers (Origin, Host) and body. */
function send(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const R = '/api/restaurants/r-1';
const D = '/api/restaurants/r-1/dishes/d_1';
const restaurant = { name: 'Blue Fig', lat: 37.7749, lng: -122.4194, cuisines: ['thai'], price_level: 2 };
const dish = { name: 'Fig salad', cuisine: 'thai', price_cents: 1299, calories: 420, diets: ['vegan'], allergens: ['peanuts'] };
const without = <T extends object>(o: T, k: keyof T) => Object.fromEntries(Object.entries(o).filter(([x]) => x !== k));

/** A bad request and what its refusal must say: the param, and words the message must hold (the field, the value, what is valid). */
interface Case {
  what: string;
  method: string;
  path: string;
  body?: string;
  status: number;
  param?: string;
  says: string[];
}

const json = (v: unknown) => JSON.stringify(v);
const CASES: Case[] = [
  // Restaurant fields: missing, wrong type, out of range, unknown keys.
  { what: 'restaurant without a name', method: 'PUT', path: R, body: json(without(restaurant, 'name')), status: 400, param: 'name', says: ['name is missing', 'non-empty string'] },
  { what: 'restaurant with an empty name', method: 'PUT', path: R, body: json({ ...restaurant, name: '  ' }), status: 400, param: 'name', says: ['name "  "', 'non-empty string'] },
  { what: 'restaurant with a 201-character name', method: 'PUT', path: R, body: json({ ...restaurant, name: 'x'.repeat(201) }), status: 400, param: 'name', says: ['name', 'at most 200 characters'] },
  { what: 'restaurant with a number for a name', method: 'PUT', path: R, body: json({ ...restaurant, name: 7 }), status: 400, param: 'name', says: ['name 7'] },
  { what: 'restaurant without lat', method: 'PUT', path: R, body: json(without(restaurant, 'lat')), status: 400, param: 'lat', says: ['lat is missing', '[-90, 90]'] },
  { what: 'restaurant without lng', method: 'PUT', path: R, body: json(without(restaurant, 'lng')), status: 400, param: 'lng', says: ['lng is missing', '[-180, 180]'] },
  { what: 'restaurant with lat 90.5', method: 'PUT', path: R, body: json({ ...restaurant, lat: 90.5 }), status: 400, param: 'lat', says: ['lat 90.5', '[-90, 90]'] },
  { what: 'restaurant with lng -180.01', method: 'PUT', path: R, body: json({ ...restaurant, lng: -180.01 }), status: 400, param: 'lng', says: ['lng -180.01', '[-180, 180]'] },
  { what: 'restaurant with lat as a string', method: 'PUT', path: R, body: json({ ...restaurant, lat: '37.7' }), status: 400, param: 'lat', says: ['lat "37.7"', 'JSON number'] },
  { what: 'restaurant with lat 1e400 (Infinity)', method: 'PUT', path: R, body: '{"name":"a","lat":1e400,"lng":0}', status: 400, param: 'lat', says: ['lat Infinity'] },
  { what: 'restaurant with an unknown cuisine', method: 'PUT', path: R, body: json({ ...restaurant, cuisines: ['thai', 'martian'] }), status: 400, param: 'cuisines', says: ['cuisines value "martian"', VOCABULARY.cuisine[0]] },
  { what: 'restaurant with cuisines as a string', method: 'PUT', path: R, body: json({ ...restaurant, cuisines: 'thai' }), status: 400, param: 'cuisines', says: ['cuisines "thai"', 'an array'] },
  { what: 'restaurant with a repeated cuisine', method: 'PUT', path: R, body: json({ ...restaurant, cuisines: ['thai', 'thai'] }), status: 400, param: 'cuisines', says: ['repeats a value'] },
  { what: 'restaurant with price_level 5', method: 'PUT', path: R, body: json({ ...restaurant, price_level: 5 }), status: 400, param: 'price_level', says: ['price_level 5', '[1, 4]'] },
  { what: 'restaurant with price_level 2.5', method: 'PUT', path: R, body: json({ ...restaurant, price_level: 2.5 }), status: 400, param: 'price_level', says: ['price_level 2.5', 'integer'] },
  { what: 'restaurant with an unknown key', method: 'PUT', path: R, body: json({ ...restaurant, routing: 'mike' }), status: 400, param: 'routing', says: ['"routing" is not a field', 'name, lat, lng, cuisines, price_level'] },
  { what: 'restaurant with a __proto__ key', method: 'PUT', path: R, body: '{"name":"a","lat":0,"lng":0,"__proto__":{"x":1}}', status: 400, param: '__proto__', says: ['"__proto__" is not a field'] },
  // Dish fields.
  { what: 'dish without a name', method: 'PUT', path: D, body: json(without(dish, 'name')), status: 400, param: 'name', says: ['name is missing'] },
  { what: 'dish with an unknown cuisine', method: 'PUT', path: D, body: json({ ...dish, cuisine: 'martian' }), status: 400, param: 'cuisine', says: ['cuisine "martian"', VOCABULARY.cuisine[0]] },
  { what: 'dish with price_cents -1', method: 'PUT', path: D, body: json({ ...dish, price_cents: -1 }), status: 400, param: 'price_cents', says: ['price_cents -1', '[0, 100000]'] },
  { what: 'dish with price_cents 100001', method: 'PUT', path: D, body: json({ ...dish, price_cents: 100001 }), status: 400, param: 'price_cents', says: ['price_cents 100001', '[0, 100000]'] },
  { what: 'dish with calories 10001', method: 'PUT', path: D, body: json({ ...dish, calories: 10001 }), status: 400, param: 'calories', says: ['calories 10001', '[0, 10000]'] },
  { what: 'dish with calories "400"', method: 'PUT', path: D, body: json({ ...dish, calories: '400' }), status: 400, param: 'calories', says: ['calories "400"', 'integer'] },
  { what: 'dish with an unknown diet', method: 'PUT', path: D, body: json({ ...dish, diets: ['carnivore'] }), status: 400, param: 'diets', says: ['diets value "carnivore"', VOCABULARY.diet[0]] },
  { what: 'dish with an unknown allergen', method: 'PUT', path: D, body: json({ ...dish, allergens: ['gravel'] }), status: 400, param: 'allergens', says: ['allergens value "gravel"', VOCABULARY.allergen[0]] },
  { what: 'dish with a restaurant field', method: 'PUT', path: D, body: json({ ...dish, lat: 1 }), status: 400, param: 'lat', says: ['"lat" is not a field of a dish'] },
  // Bodies.
  { what: 'restaurant with no body', method: 'PUT', path: R, body: '', status: 400, param: 'body', says: ['body is missing'] },
  { what: 'restaurant with a body that is not JSON', method: 'PUT', path: R, body: '{name:', status: 400, param: 'body', says: ['not JSON'] },
  { what: 'restaurant with a JSON array', method: 'PUT', path: R, body: '[1]', status: 400, param: 'body', says: ['not a JSON object'] },
  { what: 'restaurant with JSON null', method: 'PUT', path: R, body: 'null', status: 400, param: 'body', says: ['not a JSON object'] },
  { what: 'a body over the size limit', method: 'PUT', path: R, body: json({ ...restaurant, name: 'x'.repeat(MAX_WRITE_BODY_BYTES) }), status: 400, param: 'body', says: [`larger than ${MAX_WRITE_BODY_BYTES} bytes`] },
  // Ids.
  { what: 'an id with a dot', method: 'PUT', path: '/api/restaurants/r.1', body: json(restaurant), status: 400, param: 'id', says: ['id "r.1"', 'A-Z, a-z, 0-9'] },
  { what: 'an id of 65 characters', method: 'PUT', path: `/api/restaurants/${'a'.repeat(65)}`, body: json(restaurant), status: 400, param: 'id', says: ['1 to 64 characters'] },
  { what: 'an empty id', method: 'DELETE', path: '/api/restaurants/', status: 400, param: 'id', says: ['id ""'] },
  { what: 'a percent-encoded slash in an id', method: 'DELETE', path: '/api/restaurants/a%2Fb', status: 400, param: 'id', says: ['id "a/b"'] },
  { what: 'broken percent-encoding in an id', method: 'DELETE', path: '/api/restaurants/%E0%A4%A', status: 400, param: 'id', says: ['percent-encoding'] },
  { what: 'a dish id with a space', method: 'PUT', path: '/api/restaurants/r-1/dishes/d%201', body: json(dish), status: 400, param: 'dishId', says: ['dishId "d 1"'] },
  // Paths and methods.
  { what: 'a path that is not a write endpoint', method: 'PUT', path: '/api/restaurants/r-1/menus/x', body: json(dish), status: 404, says: ['not a write endpoint'] },
  { what: 'DELETE of a dish', method: 'DELETE', path: D, status: 405, says: ['DELETE is not allowed', 'PUT'] },
  { what: 'POST of a restaurant', method: 'POST', path: R, body: json(restaurant), status: 405, says: ['POST is not allowed'] },
];

describe('the write endpoints refuse bad input before asking OpenSearch', () => {
  const client = new NoNodeClient();
  const api = new LiveApi({ boundariesPath: DEFAULT_BOUNDARIES_PATH, client, writes: true });
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => void api.handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each(CASES)('refuses $what with $status naming the field', async (c) => {
    const res = await send(port, c.method, c.path, c.body);
    expect(res.status).toBe(c.status);
    if (c.status === 400) {
      expect(res.body.status).toBe('invalid');
      expect(res.body.error?.param).toBe(c.param);
    }
    for (const s of c.says) expect(res.body.error?.message).toContain(s);
    if (c.status === 405) expect(res.headers.allow).toBeTruthy();
    expect(client.asked).toEqual([]);
  });

  it('refuses a write whose Origin is another site with 403, naming the origin', async () => {
    for (const origin of ['http://evil.example', 'https://127.0.0.1:' + port, 'null', `http://127.0.0.1:${port + 1}`]) {
      const res = await send(port, 'PUT', R, json(restaurant), { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.status).toBe('forbidden');
      expect(res.body.error?.message).toContain(JSON.stringify(origin));
    }
    expect(client.asked).toEqual([]);
  });

  it('refuses a write from a peer not on loopback with 403', async () => {
    for (const peer of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1', undefined]) {
      const r = await api.write({ method: 'PUT', path: R, peer, origin: undefined, host: 'localhost:5173', body: json(restaurant) });
      expect(r.httpStatus, String(peer)).toBe(403);
      expect((r.body as Sent['body']).status).toBe('forbidden');
      expect((r.body as Sent['body']).error?.message).toContain('loopback');
    }
    expect(client.asked).toEqual([]);
  });

  it('tells loopback addresses from others', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '128.0.0.1', '::2', '::ffff:192.168.0.1', '127.0.0.1.example', '', undefined]) expect(isLoopback(a), String(a)).toBe(false);
  });
});

describe('with writes off (no GEOSHARD_WRITES=1)', () => {
  it('refuses every write with 403 saying how to enable them, and /api/status says writes are off', async () => {
    const client = new NoNodeClient();
    const prev = process.env.GEOSHARD_WRITES;
    delete process.env.GEOSHARD_WRITES;
    try {
      const api = new LiveApi({ boundariesPath: DEFAULT_BOUNDARIES_PATH, client });
      const server = createServer((req, res) => void api.handle(req, res));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      try {
        for (const [method, path, body] of [['PUT', R, json(restaurant)], ['PUT', D, json(dish)], ['DELETE', R, undefined]] as const) {
          const res = await send(port, method, path, body);
          expect(res.status, `${method} ${path}`).toBe(403);
          expect(res.body.status).toBe('forbidden');
          expect(res.body.error?.message).toContain('GEOSHARD_WRITES=1');
        }
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
      expect((await api.status()).body.writes).toEqual({ enabled: false });
      expect((await new LiveApi({ boundariesPath: DEFAULT_BOUNDARIES_PATH, client, writes: true }).status()).body.writes).toEqual({ enabled: true });
    } finally {
      if (prev !== undefined) process.env.GEOSHARD_WRITES = prev;
    }
    // status() asks the cluster for its version (refused here); no write request reached it.
    expect(client.asked.filter((a) => a.startsWith('PUT') || a.startsWith('DELETE') || a.includes('_bulk'))).toEqual([]);
  });
});
