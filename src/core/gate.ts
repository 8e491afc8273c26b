/**
 * A gate for boundary changes: the thresholds a candidate boundary file must
 * hold against the current one before it may ship (`geoshard check`).
 *
 * - max-moved: share of all documents whose read owner changes (the diff's
 *   totals.share), in [0, 1];
 * - max-mean-shards: mean shards a search asks under the candidate, over the
 *   workload (or the built-in mix), in [1, N];
 * - max-heaviest: the candidate's heaviest shard / mean shard in documents, ≥ 1;
 * - max-heaviest-load: the same in load (needs a workload), ≥ 1.
 * A threshold holds when value ≤ limit.
 */

/** The gate's thresholds; an absent one is not checked. */
export interface GateThresholds {
  maxMoved?: number;
  maxMeanShards?: number;
  maxHeaviest?: number;
  maxHeaviestLoad?: number;
}

/** What the candidate measured; null where it could not be measured (e.g. load without a workload). */
export interface GateMeasures {
  moved: number;
  meanShards: number;
  heaviest: number;
  heaviestLoad: number | null;
}

/** One threshold's verdict. */
export interface GateResult {
  /** The CLI option's name, e.g. "max-moved". */
  name: string;
  limit: number;
  value: number | null;
  pass: boolean;
  /** One line for people: "moved 7.20% of documents > 5.00%". */
  message: string;
}

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

/**
 * evaluateGate checks every threshold given, in the order max-moved,
 * max-mean-shards, max-heaviest, max-heaviest-load. A threshold whose value
 * is null fails, saying what is missing.
 */
export function evaluateGate(m: GateMeasures, t: GateThresholds): GateResult[] {
  const out: GateResult[] = [];
  const add = (name: string, limit: number | undefined, value: number | null, what: string, show: (x: number) => string, missing = '') => {
    if (limit === undefined) return;
    if (value === null) return void out.push({ name, limit, value, pass: false, message: `${what}: not measured (${missing})` });
    const pass = value <= limit;
    out.push({ name, limit, value, pass, message: `${what} ${show(value)} ${pass ? '≤' : '>'} ${show(limit)}` });
  };
  add('max-moved', t.maxMoved, m.moved, 'moved documents', pct);
  add('max-mean-shards', t.maxMeanShards, m.meanShards, 'mean shards asked', (x) => x.toFixed(4));
  add('max-heaviest', t.maxHeaviest, m.heaviest, 'heaviest shard / mean (documents)', (x) => x.toFixed(4));
  add('max-heaviest-load', t.maxHeaviestLoad, m.heaviestLoad, 'heaviest shard / mean (load)', (x) => x.toFixed(4), 'give --workload');
  return out;
}
