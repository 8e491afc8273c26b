import { it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { sha256 } from './sha256';
import { mulberry32 } from './testutil';

it('equals node:crypto sha256 on FIPS vectors and on random inputs of every length up to 300 bytes', () => {
  expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const rand = mulberry32(1);
  for (let n = 0; n <= 300; n++) {
    const b = Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
    expect(sha256(b)).toBe(createHash('sha256').update(b).digest('hex'));
  }
});
