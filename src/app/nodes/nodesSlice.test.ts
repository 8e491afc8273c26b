import { describe, it, expect, beforeEach } from 'vitest';
import { createAppStore } from '../shell/store';

/** A store of the test's own, made afresh before each test. */
let appStore = createAppStore();
const resetAppStore = () => void (appStore = createAppStore());
import { clusterLayout, missingShards } from './nodesSlice';
import type { LiveResult } from '../api/search';
import type { LiveStatus } from '../api/status';

const status = (nodes: string[]): LiveStatus => ({
  connection: { up: true, url: 'u', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: nodes.length, message: null },
  boundary: { index: 'dishes', hash: 'h', version: 1, numberOfShards: 2, routing: null },
  index: null,
  drift: null,
  nodes: nodes.map((name) => ({ id: name, name, roles: [], up: true })),
  copies: [],
});

describe('the nodes slice', () => {
  beforeEach(() => resetAppStore());

  it('starts colored by shard and switches the mode', () => {
    expect(appStore.getState().colorBy).toBe('shard');
    appStore.getState().setColorBy('latency');
    expect(appStore.getState().colorBy).toBe('latency');
  });

  it('takes the cluster layout from whichever status answered last: the Nodes view’s poll or the Live panel’s', () => {
    expect(clusterLayout(appStore.getState()).nodes).toBeNull();
    appStore.getState().setNodesStatus({ phase: 'ready', status: status(['a', 'b', 'c']), failure: null, at: 100 });
    appStore.getState().setLiveStatus({ phase: 'ready', status: status(['a', 'b']), failure: null, at: 50 });
    expect(clusterLayout(appStore.getState()).nodes?.map((n) => n.name)).toEqual(['a', 'b', 'c']);
    appStore.getState().setLiveStatus({ phase: 'ready', status: status(['a']), failure: null, at: 200 });
    expect(clusterLayout(appStore.getState()).nodes?.map((n) => n.name)).toEqual(['a']);
  });

  it('names the shards missing from the live answer: the placement’s, the routed shards that did not answer, or a 503’s', () => {
    const shard = (name: string, st: 'ok' | 'unavailable') => ({ index: 0, name, shard: 0, cells: 1, status: st, reason: null });
    const result = {
      status: 'partial',
      routed: { shardsAsked: [shard('alpha', 'ok'), shard('bravo', 'unavailable')] },
      placement: { missing: [{ shard: 3, name: 'charlie', node: 'n3' }], lostNodes: ['n3'], promoted: [] },
    } as unknown as LiveResult;
    appStore.getState().setLiveSearch({ url: 'x', pending: false, answeredUrl: 'x', result, failure: null });
    expect([...missingShards(appStore.getState())].sort()).toEqual(['bravo', 'charlie']);
    appStore.getState().setLiveSearch({
      url: 'x',
      pending: false,
      answeredUrl: 'x',
      result: null,
      failure: { kind: 'unavailable', httpStatus: 503, message: 'm', placement: { missing: [{ shard: 1, name: 'delta', node: 'n2' }], lostNodes: ['n2'], promoted: [] } },
    });
    expect([...missingShards(appStore.getState())]).toEqual(['delta']);
  });
});
