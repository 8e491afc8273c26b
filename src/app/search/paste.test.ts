import { describe, it, expect } from 'vitest';
import s2geometry from 's2-geometry';
import { parsePasted } from './paste';

// Expected tokens come from s2-geometry (an independent S2 implementation), not from s2js.
const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const tokenOf = (lat: number, lng: number, level: number) => BigInt(S2.keyToId(S2.latLngToKey(lat, lng, level))).toString(16).replace(/0+$/, '');

const off = { live: false };
const on = { live: true };

describe('parsePasted', () => {
  it('reads S2 tokens of any level, in either case, as cells with their level', () => {
    for (const level of [1, 5, 10, 17, 30]) {
      const token = tokenOf(40.7128, -74.006, level);
      const p = parsePasted(`  ${token.toUpperCase()} `, off);
      expect(p, token).toMatchObject({ kind: 'cell', cell: { token, level } });
    }
    expect(parsePasted('5', off)).toMatchObject({ kind: 'cell', cell: { token: '5', level: 0 } });
  });

  it('says why a token with a digit is not a cell', () => {
    expect(parsePasted('fff1', off)).toEqual({ kind: 'invalid', message: expect.stringMatching(/"fff1" is not a valid S2 cell token: its first digit says cube face 7/) });
    expect(parsePasted('89c2', off)).toEqual({ kind: 'invalid', message: expect.stringMatching(/marks no level/) });
    expect(parsePasted('0000', off)).toEqual({ kind: 'invalid', message: expect.stringMatching(/all zeros/) });
  });

  it('leaves hex-looking words without a digit to the city search', () => {
    expect(parsePasted('Dallas', off)).toEqual({ kind: 'text' });
    expect(parsePasted('face', off)).toEqual({ kind: 'text' }); // face 7: not a cell, and no digit
    expect(parsePasted('', off)).toEqual({ kind: 'text' });
  });

  it('reads lat,lng pairs in the usual spellings', () => {
    for (const t of ['40.7128,-74.006', '40.7128, -74.006', ' (40.7128, -74.006) ', '40.7128 -74.006', '[40.7128,-74.006]', '40.7128°, -74.006°', '+40.7128,-74.006']) {
      expect(parsePasted(t, off), t).toEqual({ kind: 'point', lat: 40.7128, lng: -74.006 });
    }
    expect(parsePasted('-90,180', off)).toEqual({ kind: 'point', lat: -90, lng: 180 });
    expect(parsePasted('.5,-.25', off)).toEqual({ kind: 'point', lat: 0.5, lng: -0.25 });
  });

  it('names the coordinate that is out of range and the range', () => {
    expect(parsePasted('95,10', off)).toEqual({ kind: 'invalid', message: 'lat 95 is out of range: a latitude is in [-90, 90] degrees (write lat,lng, latitude first)' });
    expect(parsePasted('-74.006,-190.5', off)).toEqual({ kind: 'invalid', message: 'lng -190.5 is out of range: a longitude is in [-180, 180] degrees' });
  });

  it('reads document ids only in live mode, and `id:` forces one', () => {
    expect(parsePasted('r312682', on)).toEqual({ kind: 'doc', id: 'r312682' });
    expect(parsePasted('r312682-d0', on)).toEqual({ kind: 'doc', id: 'r312682-d0' });
    expect(parsePasted('r312682', off)).toEqual({ kind: 'text' });
    expect(parsePasted('Dallas', on)).toEqual({ kind: 'text' });
    // A hex id is a token unless it is asked for as an id.
    expect(parsePasted('808581', on)).toMatchObject({ kind: 'cell' });
    expect(parsePasted('id: 808581', on)).toEqual({ kind: 'doc', id: '808581' });
    expect(parsePasted('id:808581', off)).toEqual({ kind: 'invalid', message: expect.stringMatching(/Switch Live on/) });
    expect(parsePasted('id:a b', on)).toEqual({ kind: 'invalid', message: expect.stringMatching(/document id "a b" is invalid: expected 1 to 64 characters/) });
  });
});
