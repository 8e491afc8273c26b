import { describe, it, expect } from 'vitest';
import { parseWorkload, formatWorkload, parseTimestamp, searchesOfMix, WorkloadFileError, MAX_WORKLOAD_CHARS } from './workload.ts';
import { syntheticWorkload, BACKGROUND_RADII } from './workloadGen.ts';
import { KM_PER_MILE } from './cover.ts';

const errorOf = (text: string): string => {
  try {
    parseWorkload(text, 'w.csv');
  } catch (e) {
    expect(e).toBeInstanceOf(WorkloadFileError);
    return (e as Error).message;
  }
  throw new Error('expected a WorkloadFileError');
};

describe('parseWorkload', () => {
  it('reads searches with and without timestamp and weight, skipping a header, comments and blank lines', () => {
    const s = parseWorkload(
      ['lat,lng,radius,timestamp,weight', '# a comment', '', '37.7749,-122.4194,15mi', '40.7143,-74.006,2km,2026-11-24T12:05:00Z,3  # trailing', '34.05,-118.24,5mi,2.5', '34.05,-118.24,5mi,,4', '1,2,1mi,2026-11-24T07:05:00-05:00'].join('\n'),
    );
    expect(s).toHaveLength(5);
    expect(s[0]).toEqual({ lat: 37.7749, lng: -122.4194, radius: { value: 15, unit: 'mi', km: 15 * KM_PER_MILE }, weight: 1, time: null });
    expect(s[1]).toEqual({ lat: 40.7143, lng: -74.006, radius: { value: 2, unit: 'km', km: 2 }, weight: 3, time: Date.UTC(2026, 10, 24, 12, 5) });
    expect(s[2].weight).toBe(2.5);
    expect(s[2].time).toBeNull();
    expect(s[3]).toMatchObject({ weight: 4, time: null });
    expect(s[4].time).toBe(Date.UTC(2026, 10, 24, 12, 5));
  });

  it('names the line, the field, the value and what is valid for every bad field', () => {
    const msg = errorOf(['lat,lng,radius', '91,0,5mi', '0,181,5mi', '0,0,15', '0,0,5mi,yesterday', '0,0,5mi,2026-11-24T12:00:00Z,-1', '0,0', '0,0,2000km'].join('\n'));
    expect(msg).toContain('line 2: lat "91" is invalid: expected a latitude in degrees in [-90, 90]');
    expect(msg).toContain('line 3: lng "181" is invalid: expected a longitude in degrees in [-180, 180]');
    expect(msg).toContain('line 4: radius "15" is invalid: expected a positive number with its unit, mi or km');
    expect(msg).toContain('line 5: weight "yesterday" is invalid: expected a positive number');
    expect(msg).toContain('line 6: weight "-1" is invalid');
    expect(msg).toContain('line 7: "0,0" has 2 fields: expected lat,lng,radius');
    expect(msg).toMatch(/line 8: radius "2000km" is out of range/);
  });

  it('rejects timestamps without a zone or with an impossible date', () => {
    expect(errorOf('0,0,5mi,2026-11-24T12:00:00,1')).toContain('line 1: timestamp "2026-11-24T12:00:00" is invalid: expected an ISO-8601 date and time with a zone');
    expect(errorOf('0,0,5mi,2026-02-30T12:00:00Z,1')).toContain('timestamp "2026-02-30T12:00:00Z" is invalid');
    expect(parseTimestamp('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
  });

  it('rejects an empty workload and one over the size bound', () => {
    expect(errorOf('# nothing\n\nlat,lng,radius\n')).toContain('holds no search');
    expect(errorOf(' '.repeat(MAX_WORKLOAD_CHARS + 1))).toContain(`a workload file may have at most ${MAX_WORKLOAD_CHARS}`);
  });

  it('stops listing after 20 problems and says how many more there are', () => {
    const msg = errorOf(Array.from({ length: 25 }, () => '99,0,5mi').join('\n'));
    expect(msg.split('\n').filter((l) => l.includes('lat "99"'))).toHaveLength(20);
    expect(msg).toContain('… and 5 more');
  });

  it('round-trips through formatWorkload', () => {
    const s = parseWorkload('37.7749,-122.4194,15mi\n40.7143,-74.006,2.5km,2026-11-24T12:05:00.000Z,3\n');
    expect(parseWorkload(formatWorkload(s))).toEqual(s);
  });
});

describe('searchesOfMix', () => {
  it('searches every centre at every radius with the radius share as weight', () => {
    const s = searchesOfMix({ seed: 1, centres: [{ lat: 1, lng: 2 }, { lat: 3, lng: 4 }], radii: [{ km: 5 * KM_PER_MILE, weight: 0.25, label: '5mi' }, { km: 10, weight: 0.75, label: '10km' }] });
    expect(s.map((x) => [x.lat, x.radius.unit, +x.radius.value.toFixed(9), x.weight])).toEqual([
      [1, 'mi', 5, 0.25],
      [1, 'km', 10, 0.75],
      [3, 'mi', 5, 0.25],
      [3, 'km', 10, 0.75],
    ]);
  });
});

describe('syntheticWorkload', () => {
  const places = [
    { lat: 40, lng: -100, population: 900 },
    { lat: 30, lng: -90, population: 100 },
  ];
  const hot = [{ lat: 41.85, lng: -87.65, population: 1 }];

  it('is deterministic for a seed and different for another', () => {
    const a = syntheticWorkload(places, hot, { searches: 300, seed: 5 });
    expect(syntheticWorkload(places, hot, { searches: 300, seed: 5 })).toEqual(a);
    expect(syntheticWorkload(places, hot, { searches: 300, seed: 6 })).not.toEqual(a);
  });

  it('draws background centres in proportion to population and hot spots at weekday lunch with their weight', () => {
    const s = syntheticWorkload(places, hot, { searches: 4000, seed: 1, hotShare: 0.2, hotWeight: 3 });
    const hotLines = s.filter((x) => x.weight === 3);
    const bg = s.filter((x) => x.weight === 1);
    expect(hotLines.length / s.length).toBeGreaterThan(0.17);
    expect(hotLines.length / s.length).toBeLessThan(0.23);
    // Chicago is UTC−6 by round(lng / 15): lunch 11:30–13:30 local is 17:30–19:30 UTC, Monday to Friday.
    for (const h of hotLines) {
      const d = new Date(h.time!);
      const hours = d.getUTCHours() + d.getUTCMinutes() / 60;
      expect(hours).toBeGreaterThanOrEqual(17.5);
      expect(hours).toBeLessThan(19.5);
      expect([1, 2, 3, 4, 5]).toContain(d.getUTCDay());
      expect([1, 2]).toContain(h.radius.value);
      expect(Math.abs(h.lat - 41.85)).toBeLessThan(0.03);
    }
    const nearFirst = bg.filter((x) => Math.abs(x.lat - 40) < 2).length / bg.length;
    expect(nearFirst).toBeGreaterThan(0.87);
    expect(nearFirst).toBeLessThan(0.93);
    const mi5 = bg.filter((x) => x.radius.value === 5).length / bg.length;
    expect(mi5).toBeCloseTo(BACKGROUND_RADII.find((r) => r.mi === 5)!.share, 1);
    for (let i = 1; i < s.length; i++) expect(s[i].time!).toBeGreaterThanOrEqual(s[i - 1].time!);
  });

  it('writes exactly the searches it returns', () => {
    const s = syntheticWorkload(places, hot, { searches: 200, seed: 3 });
    expect(parseWorkload(formatWorkload(s))).toEqual(s);
  });

  it('rejects options out of range, naming them', () => {
    expect(() => syntheticWorkload(places, hot, { searches: 0 })).toThrow('searches 0 is invalid');
    expect(() => syntheticWorkload([{ lat: 0, lng: 0, population: 0 }], [], { searches: 1 })).toThrow('places hold no population');
  });
});
