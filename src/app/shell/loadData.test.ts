import { describe, it, expect } from 'vitest';
import { boundariesSource, loadBoundaries, parseCities, DataLoadError } from './loadData';
import { fileWithCuts } from '../../core/testutil';
import { formatBoundaryFile } from '../../core/index';

const fetchOf = (status: number, body: string) => async () => ({ ok: status < 400, status, statusText: status === 404 ? 'Not Found' : 'OK', text: async () => body });

describe('loading the boundary file', () => {
  it('opens the bundled file unless the link names another path on this server', () => {
    expect(boundariesSource('', '/data/boundaries.json')).toBe('/data/boundaries.json');
    expect(boundariesSource('?boundaries=/proposals/next.json', '/data/boundaries.json')).toBe('/proposals/next.json');
  });

  it('refuses a boundaries parameter that is not a same-origin path', () => {
    for (const bad of ['https://example.com/b.json', '//example.com/b.json', 'b.json', '/\\127.0.0.1:5399/x.json', '/\\/evil/x.json', '/\t/evil/x.json']) {
      expect(() => boundariesSource(`?boundaries=${encodeURIComponent(bad)}`, '/x', 'http://127.0.0.1:5173'), bad).toThrow(/is not a path on this server: .*it must resolve to http:\/\/127.0.0.1:5173/);
    }
  });

  it('says how to create data/boundaries.json when it is missing', () => {
    expect(() => boundariesSource('', null)).toThrow(DataLoadError);
    expect(() => boundariesSource('', null)).toThrow(/npm run data:generate/);
  });

  it('validates the file with the core and returns a router', async () => {
    const file = fileWithCuts([1000, 5000]);
    const loaded = await loadBoundaries('/b.json', fetchOf(200, formatBoundaryFile(file)));
    expect(loaded.router.numberOfShards).toBe(3);
    expect(loaded.source).toBe('/b.json');
  });

  it('lists every problem of an invalid file, each naming its field', async () => {
    const file = { ...fileWithCuts([1000, 5000]), level: 9, boundaries: ['zz', '808581'] };
    const err = await loadBoundaries('/b.json', fetchOf(200, JSON.stringify(file))).catch((e: DataLoadError) => e);
    expect(err).toBeInstanceOf(DataLoadError);
    expect((err as DataLoadError).title).toBe('/b.json is not a valid boundary file');
    const fields = (err as DataLoadError).problems.join('\n');
    expect(fields).toMatch(/^level: 9 is not supported/m);
    expect(fields).toMatch(/boundaries\[0\]/);
    expect(fields).toMatch(/^hash: /m);
  });

  it('names the URL and the HTTP status when the file cannot be fetched', async () => {
    await expect(loadBoundaries('/missing.json', fetchOf(404, ''))).rejects.toThrow('Cannot load the boundary file: /missing.json: HTTP 404 Not Found');
  });

  it('says the server returned HTML, not a boundary file, when a path answers with the app page', async () => {
    const page = '<!doctype html>\n<html lang="en"><head><title>geoshard explorer</title></head><body><div id="root"></div></body></html>';
    const err = await loadBoundaries('/tmp/x.json', fetchOf(200, page)).catch((e: DataLoadError) => e);
    expect(err).toBeInstanceOf(DataLoadError);
    expect((err as DataLoadError).problems[0]).toMatch(/^\/tmp\/x\.json: the server returned HTML, not a boundary file: .*npx geoshard review FILE/);
    expect((err as DataLoadError).message).not.toMatch(/Unexpected token/);
  });
});

describe('parsing the sample cities', () => {
  it('reads names and coordinates', () => {
    expect(parseCities('[{"name":"San Francisco","state":"CA","country":"US","lat":37.7749,"lng":-122.4194,"population":864816}]')).toEqual([
      { name: 'San Francisco', state: 'CA', country: 'US', lat: 37.7749, lng: -122.4194, population: 864816 },
    ]);
  });

  it('names the first bad entry', () => {
    expect(() => parseCities('[{"name":"A","lat":1,"lng":2},{"name":"B","lat":91,"lng":0}]')).toThrow(/cities\[1\]\.lat 91 is not a latitude: it must be a number in \[-90, 90\]/);
    expect(() => parseCities('{}')).toThrow(/expected a JSON array of cities/);
  });
});
