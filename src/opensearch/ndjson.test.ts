import { describe, expect, it } from 'vitest';
import { NdjsonBytes } from './ndjson.ts';

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
