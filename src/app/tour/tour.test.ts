import { describe, it, expect } from 'vitest';
import { TOUR_STEPS } from './steps';
import { stepUrl, stepText } from './tour';
import { parseUrl } from '../shell/linkCodec';
import { Router, parseRadius } from '../../core/index';
import { readFileSync } from 'node:fs';

const file = JSON.parse(readFileSync(new URL('../../../data/boundaries.json', import.meta.url), 'utf8'));
const router = new Router(file);

describe('the tour', () => {
  it('opens every step by a link the one codec reads without a problem, still, at that step', () => {
    TOUR_STEPS.forEach((step, i) => {
      const parsed = parseUrl(stepUrl(i + 1));
      expect(parsed.problems, step.id).toEqual([]);
      expect(parsed.shell.tour).toBe(i + 1);
      expect(parsed.view.layers).not.toContain('spin');
    });
  });

  it("covers the script of issue 11 in order: globe, curve, circle, routing, k of N, fan-out, live; then issue 39's traffic", () => {
    expect(TOUR_STEPS.map((s) => s.id)).toEqual(['globe', 'hilbert', 'circle', 'routing', 'k-of-n', 'fanout', 'live', 'traffic']);
    expect(parseUrl(stepUrl(8)).shell.tab).toBe('traffic');
    expect(parseUrl(stepUrl(2)).view).toMatchObject({ flatten: 'net', layers: expect.arrayContaining(['hilbert']) });
    expect(parseUrl(stepUrl(6)).search.fanout).toBe(true);
    expect(parseUrl(stepUrl(7)).shell).toMatchObject({ tab: 'live', live: true });
  });

  it('keeps the boundary file on display when it moves between steps, and refuses a step that does not exist', () => {
    expect(new URLSearchParams(stepUrl(3, '?boundaries=/data/next.json&tour=2')).get('boundaries')).toBe('/data/next.json');
    expect(() => stepUrl(TOUR_STEPS.length + 1)).toThrow(`tour step ${TOUR_STEPS.length + 1} does not exist: expected 1 to ${TOUR_STEPS.length}`);
  });

  it('fills k, N and the routing string from the search shown, as the core routes it', () => {
    const { search } = parseUrl(stepUrl(5));
    const route = router.cover(search.centre!.lat, search.centre!.lng, parseRadius(`${search.radius.value}${search.radius.unit}`).km);
    const data = { status: 'ready', file } as never;
    const text = stepText(TOUR_STEPS[4], { covering: { route } as never, data });
    expect(text).toContain(`asks ${route.shards.length} of ${file.numberOfShards} shards`);
    expect(stepText(TOUR_STEPS[3], { covering: { route } as never, data })).toContain(`routing=${route.routing}`);
    expect(stepText(TOUR_STEPS[4], { covering: null, data: { status: 'loading' } })).toContain('asks — of — shards');
  });
});
