/**
 * SpillJoin's files round-trip every record: ids with tabs, newlines,
 * backslashes and characters of 2, 3 and 4 UTF-8 bytes, an id longer than a
 * partition's buffer, and enough records to flush every buffer many times.
 * The expected join is computed here with Maps, apart from the class.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpillJoin } from './spill.ts';
import { mulberry32 } from '../../core/testutil.ts';

describe('SpillJoin', () => {
  it('joins what it spilled, record for record, whatever the ids hold and however many partitions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spill-test-'));
    try {
      const rand = mulberry32(5);
      const odd = ['a\tb', 'line\nbreak', 'back\\slash', 'é-2byte', '中-3byte', '😀-4byte', 'x'.repeat(200_000)];
      for (const parts of [1, 7, 300]) {
        const a = new Map<string, string>();
        const b = new Map<string, string>();
        for (let i = 0; i < 60_000; i++) {
          const id = i < odd.length ? odd[i] : `id-${Math.floor(rand() * 80_000)}-${i % 3 === 0 ? 'ü' : ''}`;
          if (rand() < 0.7) a.set(id, `v${i % 5}`);
          if (rand() < 0.7) b.set(id, `v${i % 4}`);
        }
        const join_ = new SpillJoin(60_000, { dir, perPartition: Math.ceil(60_000 / parts) });
        expect(join_.partitions).toBe(parts);
        for (const [id, v] of a) join_.a(id, v);
        for (const [id, v] of b) join_.b(id, v);
        const seen = new Map<string, [string | undefined, string | undefined]>();
        join_.join((id, va, vb, dup) => {
          expect(dup).toBe(false);
          expect(seen.has(id)).toBe(false);
          seen.set(id, [va, vb]);
        });
        join_.close();
        const want = new Map<string, [string | undefined, string | undefined]>();
        for (const id of new Set([...a.keys(), ...b.keys()])) want.set(id, [a.get(id), b.get(id)]);
        expect(seen.size).toBe(want.size);
        for (const [id, v] of want) expect(seen.get(id), JSON.stringify(id.slice(0, 40))).toEqual(v);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
