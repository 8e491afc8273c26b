import { describe, it, expect } from 'vitest';
import { evaluateGate } from './gate.ts';

const measures = { moved: 0.04, meanShards: 1.5, heaviest: 1.06, heaviestLoad: 1.3 };

describe('evaluateGate', () => {
  it('passes each threshold the value does not exceed, equality included', () => {
    const r = evaluateGate(measures, { maxMoved: 0.05, maxMeanShards: 1.5, maxHeaviest: 1.1, maxHeaviestLoad: 1.3 });
    expect(r.map((x) => [x.name, x.pass])).toEqual([
      ['max-moved', true],
      ['max-mean-shards', true],
      ['max-heaviest', true],
      ['max-heaviest-load', true],
    ]);
  });

  it('fails each threshold broken on its own, with its value in the message', () => {
    expect(evaluateGate(measures, { maxMoved: 0.03 })).toEqual([{ name: 'max-moved', limit: 0.03, value: 0.04, pass: false, message: 'moved documents 4.00% > 3.00%' }]);
    expect(evaluateGate(measures, { maxMeanShards: 1.4 })[0]).toMatchObject({ pass: false, message: 'mean shards asked 1.5000 > 1.4000' });
    expect(evaluateGate(measures, { maxHeaviest: 1.05 })[0]).toMatchObject({ pass: false, message: 'heaviest shard / mean (documents) 1.0600 > 1.0500' });
    expect(evaluateGate(measures, { maxHeaviestLoad: 1.2 })[0]).toMatchObject({ pass: false, value: 1.3 });
  });

  it('checks only the thresholds given, and fails one it cannot measure', () => {
    expect(evaluateGate(measures, {})).toEqual([]);
    expect(evaluateGate({ ...measures, heaviestLoad: null }, { maxHeaviestLoad: 2 })[0]).toMatchObject({ pass: false, message: 'heaviest shard / mean (load): not measured (give --workload)' });
  });
});
