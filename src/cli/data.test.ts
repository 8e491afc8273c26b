import { it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from './main.ts';
import { ROOT } from './io.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

// data/boundaries.json is balanced from data/cells.csv by `npm run data:generate`
// (generator.test.ts proves cells.csv itself is reproduced byte for byte).
it('reproduces the committed data/boundaries.json byte for byte from data/cells.csv', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'geoshard-data-')), 'boundaries.json');
  const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['data:generate'] as string;
  const args = script.split('geoshard ')[1].split(/\s+/).map((a) => (a === 'data/boundaries.json' ? out : a.startsWith('data/') ? join(ROOT, a) : a));
  const r = await main(args, { out: () => {}, err: () => {} });
  expect(r).toBe(0);
  expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8'));
});

it('ships a valid bundled boundary file', async () => {
  let out = '';
  expect(await main(['validate'], { out: (t) => (out += t), err: () => {} })).toBe(0);
  expect(out).toBe('ok\n');
});
