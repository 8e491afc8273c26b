/**
 * A tiny benchmark harness: warm up, then time a function over a fixed list of inputs
 * until enough time has passed, reporting the mean time per call. Baselines and
 * candidates are measured in the same run, interleaved round by round, so machine
 * noise hits both alike.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_FORMAT, RESULTS_PATH, type Results, type ResultRun } from '../src/docs/facts.ts';

export interface Timing {
  name: string;
  /** Mean milliseconds per call. */
  msPerOp: number;
  calls: number;
}

/** measure runs each function over all inputs, interleaved, for at least minMs each after warm-up. */
export function measure<I>(fns: Record<string, (input: I) => unknown>, inputs: I[], minMs = 1500, warmupCalls = 3): Record<string, Timing> {
  const names = Object.keys(fns);
  for (const n of names) for (let w = 0; w < warmupCalls; w++) for (const x of inputs) fns[n](x);
  const spent: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const calls: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  while (names.some((n) => spent[n] < minMs)) {
    // Interleaved while both run; a function that has had its time stops, so a fast
    // candidate does not make a slow baseline run for ever.
    for (const n of names) {
      if (spent[n] >= minMs) continue;
      const t0 = performance.now();
      for (const x of inputs) fns[n](x);
      spent[n] += performance.now() - t0;
      calls[n] += inputs.length;
    }
  }
  return Object.fromEntries(names.map((n) => [n, { name: n, msPerOp: spent[n] / calls[n], calls: calls[n] }]));
}

/** fmt writes milliseconds readably. */
export const fmt = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);

/**
 * The one results file the docs quote their figures from (bench/results.json, committed; its
 * format and reader: src/docs/facts.ts). `recordRun` replaces one run in it, keeping the others:
 * the bench's figures as the docs print them, with what was measured, the command, the machine,
 * the load average during the run and the date. `npm run docs:reference` then writes every
 * figure the docs quote from it, and src/docs/docs.test.ts fails on a quote that differs.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** machine describes this machine as the results file records it: cores, CPU model, memory, Node. */
export function machine(): string {
  const c = cpus();
  const model = (c[0]?.model ?? 'unknown CPU').trim();
  return `${c.length} cores (${model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node.split('.').slice(0, 2).join('.')}`;
}

/** loadRange writes the 1-minute load averages sampled during a run as "a–b" (one value: "a"). */
export function loadRange(samples: number[]): string {
  const lo = Math.min(...samples).toFixed(1);
  const hi = Math.max(...samples).toFixed(1);
  return lo === hi ? lo : `${lo}–${hi}`;
}

/** A load sampler: call it during a run; `range()` gives the loads seen so far, as loadRange writes them. */
export function loadSampler(): { sample: () => void; range: () => string } {
  const seen = [loadavg()[0]];
  return { sample: () => void seen.push(loadavg()[0]), range: () => loadRange(seen) };
}

/** utcMinute writes a date as the results file records it: "2026-12-04 18:55" (UTC). */
export const utcMinute = (d = new Date()) => d.toISOString().slice(0, 16).replace('T', ' ');

/** recordRun writes run `id` into the results file (replacing the run of that id, keeping the others, ids sorted). */
export function recordRun(id: string, run: ResultRun, root = ROOT): void {
  const path = join(root, RESULTS_PATH);
  const results: Results = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Results) : { format: RESULTS_FORMAT, about: '', runs: {} };
  results.runs[id] = run;
  results.runs = Object.fromEntries(Object.entries(results.runs).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path, JSON.stringify(results, null, 2) + '\n');
  console.log(`recorded run "${id}" in ${RESULTS_PATH} (npm run docs:reference writes the docs' figures from it)`);
}
