import { describe, it, expect } from 'vitest';
import { boundariesSource, loadBoundaries, parseCities, DataLoadError, servedData, DATA_NAMES } from './loadData';
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
    expect((err as DataLoadError).problems[0]).toMatch(/^\/tmp\/x\.json: the server returned HTML, not a boundary file: .*npx geoshard review --candidate FILE/);
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

describe('the files a server names for the page (geoshard explore)', () => {
  const docOf = (text: string | null) => ({ getElementById: (id: string) => (id === 'geoshard-served' && text !== null ? ({ textContent: text } as HTMLElement) : null) });

  it('reads the boundary and cells files the page carries', () => {
    const served = { boundaries: { url: '/explore/boundaries.json', name: 'places.json' }, cells: { url: '/explore/cells.csv', name: 'cells.csv' } };
    expect(servedData(docOf(JSON.stringify(served)))).toEqual(served);
    expect(servedData(docOf(JSON.stringify({ boundaries: served.boundaries })))).toEqual({ boundaries: served.boundaries, cells: null });
  });

  it('names none without a document, without the element, or with one it cannot read', () => {
    expect(servedData(undefined)).toBeNull();
    expect(servedData(docOf(null))).toBeNull();
    expect(servedData(docOf('{not json'))).toBeNull();
    expect(servedData(docOf(JSON.stringify({ cells: { url: '/c.csv', name: 'c' } })))).toBeNull();
  });

  it('takes only paths on this server, never another host', () => {
    for (const url of ['https://evil.example/b.json', '//evil.example/b.json', 'b.json']) {
      expect(servedData(docOf(JSON.stringify({ boundaries: { url, name: 'b' } }))), url).toBeNull();
    }
  });

  it('outside a page that names files, the bundled data is what opens (this test has no document)', () => {
    expect(DATA_NAMES).toEqual({ boundaries: 'data/boundaries.json', cells: 'data/cells.csv' });
  });
});
