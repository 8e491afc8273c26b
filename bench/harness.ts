/**
 * A tiny benchmark harness: warm up, then time a function over a fixed list of inputs
 * until enough time has passed, reporting the mean time per call. Baselines and
 * candidates are measured in the same run, interleaved round by round, so machine
 * noise hits both alike.
 */
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
