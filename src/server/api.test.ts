/**
 * The API without a node: what it says about its boundary file, and a seeded,
 * bounded fuzz of malformed searches sent over real HTTP on loopback. Every
 * malformed search is refused with a 400 naming the parameter before any
 * request reaches OpenSearch (the client here fails the test if asked).
 */
import { describe, it, expect, afterAll } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveApi, DEFAULT_BOUNDARIES_PATH, publicName } from './api.ts';
import { OpenSearchClient, type RequestOptions, type Response } from '../cluster/client.ts';
import { SEARCH_PARAMS, VOCABULARY, MAX_SIZE, MIN_RADIUS_KM } from './wire.ts';
import { ROOT } from '../testing/testkit.ts';
import { KM_PER_MILE, MAX_RADIUS_KM } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';

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

describe('/api/status names the boundary file without the server’s disk', () => {
  it('gives the bundled file as a path relative to the project, and no absolute path anywhere', async () => {
    const r = await new LiveApi({ boundariesPath: DEFAULT_BOUNDARIES_PATH, client: new NoNodeClient() }).status();
    expect(r.body.boundary).toMatchObject({ file: 'data/boundaries.json' });
    expect(JSON.stringify(r.body)).not.toContain(ROOT);
  });

  it('gives only the file name of a file outside the project, also when it is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geoshard-status-'));
    try {
      const path = join(dir, 'mine.json');
      copyFileSync(DEFAULT_BOUNDARIES_PATH, path);
      const ok = await new LiveApi({ boundariesPath: path, client: new NoNodeClient() }).status();
      expect(ok.body.boundary).toMatchObject({ file: 'mine.json' });
      expect(JSON.stringify(ok.body)).not.toContain(dir);
      const missing = join(dir, 'gone.json');
      const api = new LiveApi({ boundariesPath: missing, client: new NoNodeClient() });
      const bad = await api.status();
      expect(bad.body.boundary).toMatchObject({ file: 'gone.json' });
      expect((bad.body.boundary as { error: string }).error).toContain('gone.json does not exist');
      expect(JSON.stringify(bad.body)).not.toContain(dir);
      const search = await api.search(new URLSearchParams('lat=1&lng=1&radius=1km'));
      expect(search.httpStatus).toBe(500);
      expect(JSON.stringify(search.body)).not.toContain(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publicName keeps project paths relative and reduces outside paths to their name', () => {
    expect(publicName(join(ROOT, 'data', 'x', 'b.json'))).toBe('data/x/b.json');
    expect(publicName('/etc/geoshard/b.json')).toBe('b.json');
    expect(publicName('data/boundaries.json')).toBe('data/boundaries.json');
  });
});

// ---------------------------------------------------------------------------
// Fuzz

/** A malformed search and the parameter its refusal must name. */
interface Case {
  qs: string;
  param: string;
}

const VALID = { lat: '37.7749', lng: '-122.4194', radius: '15mi', diet: 'vegan', allergen: 'peanuts', cuisine: 'thai', size: '10', compare: '1' };

/** malformedCases returns n malformed searches from a seed: a valid search with exactly one thing wrong. */
function malformedCases(seed: number, n: number): Case[] {
  const rnd = mulberry32(seed);
  const int = (k: number) => Math.floor(rnd() * k);
  const pick = <T,>(xs: readonly T[]): T => xs[int(xs.length)];
  const letters = (len: number) => Array.from({ length: len }, () => pick('abcdfghijklnopqrstuvwxyzQXZ_$!~'.split(''))).join('');
  const junk = () => {
    // Printable ASCII and a few code points beyond; always with at least one character no number contains.
    const chars = Array.from({ length: 1 + int(12) }, () => String.fromCodePoint(pick([33 + int(94), 0x661, 0x3000, 0x1f600, 0xfeff])));
    return chars.join('') + pick(['#', 'z', ' ', '\u0000', '%', '\\']);
  };
  const num = (limit: number) => (rnd() * 2 - 1) * limit;
  const badNumber = (limit: number): string =>
    pick([
      () => `0x${int(255).toString(16)}`,
      () => `0b${int(8).toString(2)}`,
      () => `0o${int(8).toString(8)}`,
      () => `${num(limit).toFixed(3)}e${int(3)}`,
      () => `${int(9)}E-${1 + int(300)}`,
      () => ` ${num(limit).toFixed(2)}`,
      () => `${num(limit).toFixed(2)} `,
      () => `.${int(100)}`,
      () => `${int(90)}.`,
      () => pick(['NaN', 'Infinity', '-Infinity', '', '+', '-', '1,5', '1_000', '--1', '+-2', '١٢']),
      () => (limit + 0.001 + rnd() * 1e6).toFixed(int(5)) .replace(/^/, pick(['', '-'])),
      () => junk(),
      () => `${num(limit).toFixed(4)}${letters(1 + int(3))}`,
    ])();
  const badRadius = (): string =>
    pick([
      () => `${int(9)}e-${1 + int(300)}km`,
      () => `1e${1 + int(3)}mi`,
      () => `0x${1 + int(99)}`,
      () => `0b1${pick(['', 'km', 'mi'])}`,
      () => `0o7${pick(['', 'km', 'mi'])}`,
      () => `${(rnd() * MIN_RADIUS_KM * 0.99).toFixed(6)}km`,
      () => `${((rnd() * MIN_RADIUS_KM * 0.99) / KM_PER_MILE).toFixed(7)}mi`,
      () => `${(MAX_RADIUS_KM + 1 + rnd() * 1e6).toFixed(int(4))}km`,
      () => `${(MAX_RADIUS_KM / KM_PER_MILE + 1 + rnd() * 1e4).toFixed(2)}mi`,
      () => `${int(100)} ${pick(['mi', 'km'])}`,
      () => `${1 + int(100)}${pick(['ft', 'm', 'nm', 'au', 'k', 'MIL', 'kmi'])}`,
      () => `-${1 + int(100)}km`,
      () => pick(['0', '0km', '0.000mi', 'Infinitykm', 'NaN', '', 'km', 'mi']),
      () => junk(),
    ])();
  const out: Case[] = [];
  const build = (over: Record<string, string | null>, extra = ''): string => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...VALID, ...over })) if (v !== null) p.append(k, v);
    return p.toString() + extra;
  };
  while (out.length < n) {
    const kind = int(11);
    if (kind === 0) out.push({ qs: build({ lat: badNumber(90) }), param: 'lat' });
    else if (kind === 1) out.push({ qs: build({ lng: badNumber(180) }), param: 'lng' });
    else if (kind === 2) out.push({ qs: build({ radius: badRadius() }), param: 'radius' });
    else if (kind === 3) {
      const k = pick(['diet', 'allergen', 'cuisine'] as const);
      let v = letters(1 + int(10));
      while (VOCABULARY[k].includes(v.toLowerCase())) v += 'x';
      out.push({ qs: build({ [k]: pick([v, `${VALID[k]},${v}`, `${VALID[k]},,`, `,${VALID[k]}`]) }), param: k });
    } else if (kind === 4) out.push({ qs: build({ size: pick([String(MAX_SIZE + 1 + int(1e6)), `-${1 + int(9)}`, `${int(9)}.5`, ` ${int(9)}`, '0x1', '1e1', letters(3), '']) }), param: 'size' });
    else if (kind === 5) out.push({ qs: build({ compare: pick(['yes', 'no', '2', '-1', 'on', 'TRUE1', letters(4)]) }), param: 'compare' });
    else if (kind === 6) {
      let name = pick(['q', 'routing', 'index', 'preference', 'body', 'radiusKm', 'LAT', 'lat ', '', 'size[]', '__proto__', 'constructor', junk()]);
      if ((SEARCH_PARAMS as readonly string[]).includes(name)) name += '_';
      out.push({ qs: build({}, `&${encodeURIComponent(name)}=${encodeURIComponent(junk())}`), param: name });
    } else if (kind === 7) {
      const k = pick(['lat', 'lng', 'radius', 'size', 'compare'] as const);
      out.push({ qs: build({}, `&${k}=${encodeURIComponent(VALID[k])}`), param: k });
    } else if (kind === 8) {
      const k = pick(['lat', 'lng'] as const);
      out.push({ qs: build({ [k]: null }), param: k });
    } else if (kind === 9) out.push({ qs: build({ lat: null, lng: null }), param: 'radius' });
    else out.push({ qs: build({ radius: null }), param: 'radius' });
  }
  return out;
}

describe('fuzz: malformed searches over HTTP', () => {
  const client = new NoNodeClient();
  const api = new LiveApi({ boundariesPath: DEFAULT_BOUNDARIES_PATH, client });
  const server = createServer((req, res) => void api.handle(req, res));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('refuses 1,200 seeded malformed searches with a 400 naming the parameter, never a 5xx, never asking OpenSearch', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/search?`;
    const cases = malformedCases(20261130, 1200);
    const problems: string[] = [];
    const byStatus = new Map<number, number>();
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (c) => {
          const res = await fetch(base + c.qs);
          byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
          const body = (await res.json()) as { status?: string; error?: { param?: string; message?: string } };
          if (res.status !== 400) return problems.push(`${res.status} for ${c.qs}`);
          if (body.status !== 'invalid') problems.push(`status ${body.status} for ${c.qs}`);
          if (body.error?.param !== c.param) problems.push(`param ${JSON.stringify(body.error?.param)}, expected ${JSON.stringify(c.param)}, for ${c.qs}`);
          if (!body.error?.message?.includes(c.param) && !body.error?.message?.includes(JSON.stringify(c.param))) problems.push(`message does not name ${JSON.stringify(c.param)}: ${body.error?.message}`);
        }),
      );
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(Object.fromEntries(byStatus)).toEqual({ 400: 1200 });
    expect(client.asked).toEqual([]);
  });

  it('answers malformed paths, methods and encodings with a 4xx JSON error, never a 5xx', async () => {
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rnd = mulberry32(7);
    const paths = ['/api/', '/api/searchx', '/api/search/', '/api/status/x', '/api/%2e%2e/etc/passwd', '/api/search?%', '/api/search?lat=%E0%A4%A&lng=1&radius=1', '/api/search?&&&=', '/api//search'];
    // Random query strings, each ending in an unknown parameter so none is a valid search.
    for (let i = 0; i < 40; i++) paths.push(`/api/search?${Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => String.fromCharCode(33 + Math.floor(rnd() * 94))).join('')}&x${i}=1`);
    for (const p of paths) {
      for (const method of ['GET', 'POST', 'DELETE', 'PUT']) {
        const res = await fetch(base + p, { method });
        expect(res.status, `${method} ${p}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${p}`).toBeLessThan(500);
        const body = (await res.json()) as { error?: { message?: string } };
        expect(body.error?.message, `${method} ${p}`).toBeTruthy();
      }
    }
    expect(client.asked).toEqual([]);
  });
});
