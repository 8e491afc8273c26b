import { it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { sha256, utf8 } from './sha256.ts';
import { mulberry32 } from './testutil.ts';

it('equals node:crypto sha256 on FIPS vectors and on random inputs of every length up to 300 bytes', () => {
  expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const rand = mulberry32(1);
  for (let n = 0; n <= 300; n++) {
    const b = Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
    expect(sha256(b)).toBe(createHash('sha256').update(b).digest('hex'));
  }
});

it('encodes strings as UTF-8 exactly as TextEncoder does, lone surrogates included', () => {
  const samples = ['', 'abc', 'é', 'Zürich', '東京', '😀', 'a\u0000b', '\ud800', 'x\udc00y', '\udbff\udfff', '\ud83d', '€𝄞'];
  const rand = mulberry32(2);
  for (let t = 0; t < 300; t++) samples.push(String.fromCharCode(...Array.from({ length: 1 + Math.floor(rand() * 12) }, () => Math.floor(rand() * 0x10000))));
  for (const s of samples) {
    expect(Array.from(utf8(s))).toEqual(Array.from(new TextEncoder().encode(s)));
    expect(sha256(s)).toBe(createHash('sha256').update(Buffer.from(new TextEncoder().encode(s))).digest('hex'));
  }
});
