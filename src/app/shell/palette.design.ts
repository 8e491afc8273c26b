/**
 * How PALETTE in palette.ts was chosen (run: npx tsx src/app/shell/palette.design.ts; about 10 s).
 *
 * Candidates: the most saturated in-gamut colour (chroma 0.07 to 0.17) at each of 48 hues and
 * 6 OKLab lightnesses from 0.56 to 0.91. Greedy, in key order: each next colour maximises the
 * smallest of (its distance to the previous colour / 0.16, to the two before / 0.10, under the
 * worst of normal, protan, deutan and tritan vision; its distance to every chosen colour /
 * 0.06 under normal vision and / 0.03 under the worst vision). Prints the list and its figures.
 */
import { oklabToSrgb, simulate, deltaE, toHex, type RGB, type Vision } from './palette.ts';

const visions: Vision[] = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'];
const cands: RGB[] = [];
for (const L of [0.56, 0.63, 0.7, 0.77, 0.84, 0.91]) {
  for (let h = 0; h < 360; h += 7.5) {
    const hr = (h * Math.PI) / 180;
    for (let c = 0.17; c >= 0.04; c -= 0.005) {
      const rgb = oklabToSrgb([L, c * Math.cos(hr), c * Math.sin(hr)]);
      if (rgb.every((v) => v >= 0 && v <= 1)) {
        if (c >= 0.07) cands.push(rgb);
        break;
      }
    }
  }
}
const sim = cands.map((c) => visions.map((v) => simulate(c, v)));
const worst = (a: number, b: number) => Math.min(...visions.map((_, k) => deltaE(sim[a][k], sim[b][k])));
const chosen: number[] = [];
for (let i = 0; i < 36; i++) {
  let best = -1;
  let bestScore = -Infinity;
  let bestSum = 0;
  for (let c = 0; c < cands.length; c++) {
    if (chosen.includes(c)) continue;
    let score = Infinity;
    let sum = 0;
    [0.16, 0.1, 0.1].forEach((w, back) => {
      if (i > back) {
        const d = worst(c, chosen[i - 1 - back]);
        score = Math.min(score, d / w);
        sum += d;
      }
    });
    for (const o of chosen) score = Math.min(score, deltaE(cands[c], cands[o]) / 0.06, worst(c, o) / 0.03);
    if (i === 0) score = -Math.abs(cands[c][0] - 0.95);
    if (score > bestScore || (score === bestScore && sum > bestSum)) [best, bestScore, bestSum] = [c, score, sum];
  }
  chosen.push(best);
}
console.log(JSON.stringify(chosen.map((c) => toHex(cands[c]))));
