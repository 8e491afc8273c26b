/**
 * How PALETTE in palette.ts was chosen (run: npx tsx src/app/shell/palette.design.ts; about 20 s).
 *
 * Candidates: the most saturated in-gamut color (chroma 0.07 to 0.19) and a softer one (two
 * thirds of that chroma, if at least 0.08) at each of 48 hues and 7 OKLab lightnesses from 0.56
 * to 0.91.
 *
 * The first FIRST colors (a file of up to 16 shards: the bundled one has 15) are chosen as a
 * set: a local search (seeded, deterministic) maximises the smallest of
 *   - any two of them under normal vision / 0.13,
 *   - any two of them under the worst of protan, deutan and tritan vision / 0.05,
 *   - neighbours in key order under the worst vision / 0.18, and two apart / 0.10,
 * so no two of the first shards are alike and neighbours along the curve are far apart. The rest
 * follow greedily, as before: each next color maximises the smallest of (its distance to the
 * previous color / 0.16, to the two before / 0.10, under the worst vision; its distance to every
 * chosen color / 0.06 under normal vision and / 0.03 under the worst vision). Prints the list.
 */
import { oklabToSrgb, simulate, deltaE, toHex, type RGB, type Vision } from './palette.ts';

const FIRST = 16;
const visions: Vision[] = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'];
const cands: RGB[] = [];
for (const L of [0.56, 0.62, 0.68, 0.74, 0.8, 0.86, 0.91]) {
  for (let h = 0; h < 360; h += 7.5) {
    const hr = (h * Math.PI) / 180;
    for (let c = 0.19; c >= 0.04; c -= 0.005) {
      const rgb = oklabToSrgb([L, c * Math.cos(hr), c * Math.sin(hr)]);
      if (rgb.every((v) => v >= 0 && v <= 1)) {
        if (c >= 0.07) cands.push(rgb);
        // The softer one only where it stays saturated (chroma ≥ 0.08): greys belong to the
        // Requests layer's scale (requests.ts), which must stay apart from every shard color.
        if ((2 / 3) * c >= 0.08) cands.push(oklabToSrgb([L, ((2 / 3) * c) * Math.cos(hr), ((2 / 3) * c) * Math.sin(hr)]).map((v) => Math.min(1, Math.max(0, v))) as RGB);
        break;
      }
    }
  }
}
const n = cands.length;
const sim = cands.map((c) => visions.map((v) => simulate(c, v)));
const normal = new Float64Array(n * n);
const worstM = new Float64Array(n * n);
for (let a = 0; a < n; a++) {
  for (let b = a + 1; b < n; b++) {
    const d = visions.map((_, k) => deltaE(sim[a][k], sim[b][k]));
    normal[a * n + b] = normal[b * n + a] = d[0];
    worstM[a * n + b] = worstM[b * n + a] = Math.min(...d);
  }
}
const worst = (a: number, b: number) => worstM[a * n + b];

/** The score of the first colors as a set (see the header); higher is better. */
function score(set: number[]): number {
  let s = Infinity;
  for (let i = 0; i < set.length; i++) {
    for (let j = i + 1; j < set.length; j++) {
      if (set[i] === set[j]) return -Infinity;
      s = Math.min(s, normal[set[i] * n + set[j]] / 0.15, worst(set[i], set[j]) / 0.045);
      if (j === i + 1) s = Math.min(s, worst(set[i], set[j]) / 0.16);
      if (j === i + 2) s = Math.min(s, worst(set[i], set[j]) / 0.1);
    }
  }
  return s;
}

// A small deterministic generator (mulberry32), so the design reproduces exactly.
let seed = 11;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

let best: number[] = [];
let bestScore = -Infinity;
for (let restart = 0; restart < 12; restart++) {
  const set = Array.from({ length: FIRST }, () => Math.floor(random() * n));
  let s = score(set);
  for (let it = 0; it < 40000; it++) {
    const next = [...set];
    if (random() < 0.3) {
      const i = Math.floor(random() * FIRST);
      const j = Math.floor(random() * FIRST);
      [next[i], next[j]] = [next[j], next[i]];
    } else next[Math.floor(random() * FIRST)] = Math.floor(random() * n);
    const ns = score(next);
    if (ns >= s) {
      set.splice(0, FIRST, ...next);
      s = ns;
    }
  }
  if (s > bestScore) [best, bestScore] = [[...set], s];
}

const chosen = [...best];
for (let i = FIRST; i < 36; i++) {
  let pick = -1;
  let pickScore = -Infinity;
  let pickSum = 0;
  for (let c = 0; c < n; c++) {
    if (chosen.includes(c)) continue;
    let sc = Infinity;
    let sum = 0;
    [0.16, 0.1, 0.1].forEach((w, back) => {
      const d = worst(c, chosen[i - 1 - back]);
      sc = Math.min(sc, d / w);
      sum += d;
    });
    for (const o of chosen) sc = Math.min(sc, normal[c * n + o] / 0.06, worst(c, o) / 0.03);
    if (sc > pickScore || (sc === pickScore && sum > pickSum)) [pick, pickScore, pickSum] = [c, sc, sum];
  }
  chosen.push(pick);
}
console.log(`first ${FIRST}: score ${bestScore.toFixed(3)}`);
console.log(JSON.stringify(chosen.map((c) => toHex(cands[c]))));
