import { describe, it, expect } from 'vitest';
import { readDocument } from './documents';

const found = {
  status: 'found', index: 'dishes', id: 'r1', kind: 'restaurant', location: { lat: 37.7749, lng: -122.4194 }, cell: '808581',
  file: { name: 'bravo', shard: 3 }, copies: [{ shard: 3, name: 'bravo', routing: 'bravo', agrees: true }], agrees: true,
};

describe('readDocument', () => {
  it('reads a found document with its copies and verdict', () => {
    expect(readDocument(200, found)).toEqual({ ok: true, doc: found });
  });

  it('disagrees when any copy is on another shard than the file names', () => {
    const r = readDocument(200, { ...found, copies: [...found.copies, { shard: 5, name: 'echo', routing: 'echo', agrees: false }], agrees: false });
    expect(r).toMatchObject({ ok: true, doc: { agrees: false, copies: [{ shard: 3 }, { shard: 5, name: 'echo' }] } });
  });

  it('gives the API’s own message for a refusal, and says what is missing from a malformed answer', () => {
    expect(readDocument(404, { status: 'not-found', error: { param: 'id', message: 'no document with id "x"' } })).toEqual({ ok: false, message: 'no document with id "x"' });
    expect(readDocument(502, 'oops')).toEqual({ ok: false, message: 'the live API answered HTTP 502' });
    expect(readDocument(200, { status: 'found' })).toMatchObject({ ok: false, message: expect.stringContaining('no document location, cell, file shard and copies') });
  });
});
