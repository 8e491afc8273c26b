import { describe, it, expect } from 'vitest';
import { readTraffic, fetchTraffic } from './traffic';
import { rangeCounts } from '../../core/traffic';
import type { TrafficAnswer } from '../../server/wire';

/** An answer as the server's TrafficEndpoint writes it (the wire's type, so a field the server drops fails to compile here). */
const answer: TrafficAnswer = {
  status: 'complete',
  index: 'dishes',
  boundary: { hash: 'h'.repeat(64), version: 3, numberOfShards: 2 },
  query: { window: '15m', to: '2026-12-05T10:15:00.000Z', factor: 2, sustain: '5m', metric: 'searches', buckets: 720 },
  recorder: { running: true, intervalSeconds: 60, historyIndex: 'geoshard-traffic', retentionDays: 7, recorded: 12, lastAt: '2026-12-05T10:14:00.000Z', last: 'recorded', problem: null, cells: 'recorded (exact)' },
  historyIndex: 'geoshard-traffic',
  window: {
    index: 'dishes',
    hash: 'h'.repeat(64),
    from: '2026-12-05T10:00:00.000Z',
    to: '2026-12-05T10:15:00.000Z',
    intervalSeconds: 60,
    sources: ['shards'],
    ranges: [
      { index: 0, shard: 1, name: 'x', start: '0c', end: '4c' },
      { index: 1, shard: 0, name: 'y', start: '4c', end: null },
    ],
    buckets: [{ start: '2026-12-05T10:00:00.000Z', end: '2026-12-05T10:01:00.000Z', seconds: 60, resets: 0, ranges: [rangeCounts(120, 40, 3, 60), rangeCounts(0, 0, 0, 60)] }],
    gaps: [{ start: '2026-12-05T10:01:00.000Z', end: '2026-12-05T10:05:00.000Z', reason: 'no sample' }],
    otherHashes: [],
  },
  hotspots: [{ index: 0, shard: 1, name: 'x', start: '0c', end: '4c', metric: 'searches', from: '2026-12-05T10:00:00.000Z', to: '2026-12-05T10:01:00.000Z', seconds: 60, buckets: 1, count: 120, perSecond: 2, overMean: 2, peakOverMean: 2, share: 1 }],
};

describe('GET /api/traffic, read by the explorer', () => {
  it('reads an answer as the server writes it, field for field', () => {
    const r = readTraffic(200, JSON.parse(JSON.stringify(answer)));
    expect(r).toEqual({ ok: true, value: answer });
  });

  it('refuses an answer with a field the picture needs missing or of the wrong type, naming it', () => {
    const broken = JSON.parse(JSON.stringify(answer));
    broken.window.buckets[0].ranges[1].searches = 'many';
    const r = readTraffic(200, broken);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure).toMatchObject({ kind: 'bad-response', message: expect.stringContaining('window.buckets[0].ranges[1].searches') });
    const short = JSON.parse(JSON.stringify(answer));
    short.window.buckets[0].ranges.pop();
    const s = readTraffic(200, short);
    expect(!s.ok && s.failure.message).toContain('has 1 ranges, not the window');
    const none = readTraffic(200, { ...JSON.parse(JSON.stringify(answer)), hotspots: undefined });
    expect(!none.ok && none.failure.message).toContain('hotspots');
  });

  it("maps the server's refusals as every endpoint does: a bad parameter names it, drift keeps both hashes", () => {
    const bad = readTraffic(400, { status: 'invalid', error: { param: 'window', message: 'window "0m" is not a duration' } });
    expect(bad).toEqual({ ok: false, failure: { kind: 'invalid', httpStatus: 400, param: 'window', message: 'window "0m" is not a duration' } });
    const drift = readTraffic(409, { status: 'drift', error: { message: 'drifted' }, drift: { status: 'mismatch', indexHash: 'a', fileHash: 'b', indexVersion: 1, fileVersion: 2 } });
    expect(!drift.ok && drift.failure.kind).toBe('drift');
    expect(!drift.ok && drift.failure.drift).toEqual({ status: 'mismatch', indexHash: 'a', fileHash: 'b', indexVersion: 1, fileVersion: 2 });
  });

  it('asks with the window and the metric in the address, defaults left out', async () => {
    const urls: string[] = [];
    const fake = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    await fetchTraffic({ windowSeconds: 3600, metric: 'writes' }, new AbortController().signal, fake);
    await fetchTraffic({ windowSeconds: 900, metric: 'searches' }, new AbortController().signal, fake);
    expect(urls).toEqual(['/api/traffic?window=1h&metric=writes', '/api/traffic?window=15m']);
  });
});
