import { describe, it, expect, vi, afterEach } from 'vitest';
import { createGeometryApi, createGeometryClient } from './geometryWorker';
import { portWorker } from '../shell/worker.testing';
import { levelCellCenters } from './levels';
import { hilbertSegments } from './typedArrays';

const started = () => Promise.resolve();

afterEach(() => vi.unstubAllGlobals());

describe('the geometry worker and its client', () => {
  it('starts the worker on first use and answers the Hilbert curve of a level as the kit computes it, once per level', async () => {
    const make = vi.fn(() => portWorker(createGeometryApi()));
    const client = createGeometryClient(make, started);
    expect(make).not.toHaveBeenCalled();
    const curve = await client.hilbert(1);
    expect(Array.from(curve.ll)).toEqual(Array.from(hilbertSegments(levelCellCenters(1), 1).ll));
    expect(client.hilbert(1)).toBe(client.hilbert(1));
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('parses a cells file once per URL, and forgets a failed load so a later call tries again', async () => {
    const text = 'token,restaurants,dishes\n4ca353,1,38\n4ca4c1,6,296\n';
    let ok = false;
    const fetch = vi.fn(async () => (ok ? new Response(text) : new Response('', { status: 503 })));
    vi.stubGlobal('fetch', fetch);
    const client = createGeometryClient(() => portWorker(createGeometryApi()), started);
    await expect(client.cells('/cells.csv')).rejects.toThrow('/cells.csv: HTTP 503');
    ok = true;
    const cells = await client.cells('/cells.csv');
    expect(cells.tokens).toBe('4ca353,4ca4c1');
    expect(Array.from(cells.restaurants)).toEqual([1, 6]);
    expect(cells.unit).toBe('restaurants + dishes');
    expect(client.cells('/cells.csv')).toBe(client.cells('/cells.csv'));
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
