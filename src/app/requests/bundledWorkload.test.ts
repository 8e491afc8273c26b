import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the bundled workload', () => {
  it('is what `geoshard workload --searches 1000 --seed 1` writes, byte for byte (so it is never edited by hand)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'geoshard-bundled-')), 'workload.csv');
    let err = '';
    const code = await main(['workload', '--searches', '1000', '--seed', '1', '--out', out], { out: () => {}, err: (t) => (err += t) });
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(join(ROOT, 'data/workload.csv'), 'utf8')).toBe(readFileSync(out, 'utf8'));
  });
});
