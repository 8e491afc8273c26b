import { describe, expect, it } from 'vitest';
import { NdjsonBytes, bulkBody, bulkErrors } from './bulk.ts';

describe('NdjsonBytes', () => {
  it('writes each line and a newline as UTF-8, growing past its first buffer', () => {
    const out = new NdjsonBytes(16);
    const lines = [JSON.stringify({ index: { _id: 'a' } }), JSON.stringify({ name: 'Café Zürich 東京 🍜', n: 1 }), '{}'];
    for (let k = 0; k < 200; k++) for (const l of lines) out.line(l);
    // The reference: Node's own encoding of the joined text.
    const expected = Buffer.from(Array.from({ length: 200 }, () => lines.map((l) => l + '\n').join('')).join(''), 'utf8');
    expect(out.length).toBe(expected.length);
    expect(Buffer.compare(out.bytes(), expected)).toBe(0);
    const parsed = out.bytes().toString('utf8').split('\n').slice(0, 3).map((l) => JSON.parse(l));
    expect(parsed[1].name).toBe('Café Zürich 東京 🍜');
  });

  it('is empty before any line', () => {
    expect(new NdjsonBytes().bytes().length).toBe(0);
  });
});

describe('bulk requests', () => {
  it('writes an action line with index, id and routing before each source line', () => {
    const text = bulkBody([{ op: 'index', index: 'i', id: 'a', routing: 'lima', source: { x: 1 } }]).toString('utf8');
    expect(text).toBe('{"index":{"_index":"i","_id":"a","routing":"lima"}}\n{"x":1}\n');
    // Without routing: the engine hashes the id (a plain load), or the default pipeline routes it.
    expect(bulkBody([{ op: 'index', index: 'i', id: 'b"c', source: {} }]).toString('utf8')).toBe('{"index":{"_index":"i","_id":"b\\"c"}}\n{}\n');
  });

  it('writes a create with its source, and a conditional delete with no source line', () => {
    const text = bulkBody([
      { op: 'create', index: 'i', id: 'a', routing: 'lima', source: { x: 1 } },
      { op: 'delete', index: 'i', id: 'b', routing: 'echo', ifSeqNo: 7, ifPrimaryTerm: 2 },
    ]).toString('utf8');
    expect(text.split('\n').filter(Boolean).map((l) => JSON.parse(l))).toEqual([
      { create: { _index: 'i', _id: 'a', routing: 'lima' } },
      { x: 1 },
      { delete: { _index: 'i', _id: 'b', routing: 'echo', if_seq_no: 7, if_primary_term: 2 } },
    ]);
  });

  it('lists every failed item of a bulk response', () => {
    const errs = bulkErrors({
      errors: true,
      items: [
        { index: { _id: 'a', status: 201 } },
        { index: { _id: 'b', status: 400, error: { type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict' } } },
      ],
    });
    expect(errs).toEqual([{ id: 'b', status: 400, type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict' }]);
    expect(bulkErrors({ errors: false, items: [] })).toEqual([]);
  });
});
