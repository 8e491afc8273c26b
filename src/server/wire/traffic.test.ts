import { describe, it, expect } from 'vitest';
import { parseTrafficQuery, trafficQueryString, TRAFFIC_DEFAULTS, ParamError } from '../wire.ts';

const parse = (qs: string) => parseTrafficQuery(new URLSearchParams(qs));
const paramOf = (qs: string) => {
  try {
    parse(qs);
  } catch (e) {
    expect(e).toBeInstanceOf(ParamError);
    return [(e as ParamError).param, (e as Error).message];
  }
  throw new Error(`expected ${qs} to be refused`);
};

describe('GET /api/traffic query', () => {
  it('has defaults: the last 15 minutes, 2× the mean sustained 5 minutes, searches, 720 buckets', () => {
    expect(parse('')).toEqual({ windowSeconds: 900, toMs: null, factor: 2, sustainSeconds: 300, metric: 'searches', buckets: 720 });
    expect(TRAFFIC_DEFAULTS.windowSeconds).toBe(900);
  });

  it('reads every parameter and writes it back', () => {
    const q = parse('window=7d&to=2026-12-04T18:30:00Z&factor=1.5&sustain=90s&metric=writes&buckets=100');
    expect(q).toEqual({ windowSeconds: 7 * 86_400, toMs: Date.UTC(2026, 11, 4, 18, 30), factor: 1.5, sustainSeconds: 90, metric: 'writes', buckets: 100 });
    expect(parse(trafficQueryString(q))).toEqual(q);
    expect(trafficQueryString({ windowSeconds: 900 })).toBe('window=15m');
  });

  it('names the parameter, its value and what is valid', () => {
    expect(paramOf('window=15')).toEqual(['window', 'window "15" is not a duration: expected a positive number with its unit, s, m, h or d, such as "90s", "15m", "2h" or "7d"']);
    expect(paramOf('window=40d')[0]).toBe('window');
    expect(paramOf('sustain=0s')[0]).toBe('sustain');
    expect(paramOf('to=yesterday')).toEqual(['to', 'to "yesterday" is not a time: expected ISO-8601 with a zone, such as "2026-12-04T18:30:00Z"']);
    expect(paramOf('factor=-1')[0]).toBe('factor');
    expect(paramOf('factor=abc')[0]).toBe('factor');
    expect(paramOf('metric=cpu')).toEqual(['metric', 'metric "cpu" is invalid: expected searches, writes, searchMs']);
    expect(paramOf('buckets=0')[0]).toBe('buckets');
    expect(paramOf('buckets=5001')[0]).toBe('buckets');
    expect(paramOf('since=1h')).toEqual(['since', 'since is not a parameter of /api/traffic: expected window, to, factor, sustain, metric, buckets']);
  });
});
