import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import { createAppStore } from '../shell/store';
import { startNodesPoller } from './nodesPoller';

const STATUS = {
  connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { version: '2.19.6', health: 'green', nodes: 2 } },
  boundary: { index: 'dishes', hash: 'h', version: 1, numberOfShards: 1 },
  nodes: [
    { id: 'a', name: 'n1', roles: ['data'], up: true },
    { id: 'b', name: 'n2', roles: ['data'], up: true },
  ],
  index: { name: 'dishes', exists: true, docs: { restaurants: 1, dishes: 1 }, copies: [{ shard: 0, name: 'alpha', primary: true, state: 'STARTED', node: { id: 'a', name: 'n1' }, docs: 2 }] },
  drift: null,
};

describe('the nodes poller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks at once, then every interval after each answer (never two at a time), and stops asking when stopped', async () => {
    const store = createAppStore();
    const pending: ((r: Response) => void)[] = [];
    let asked = 0;
    const fetchImpl = ((_url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        asked++;
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        pending.push(resolve);
      })) as unknown as typeof fetch;
    const stop = startNodesPoller(store, { fetch: fetchImpl, everyMs: 1000 });
    expect(asked).toBe(1);
    expect(store.getState().nodesStatus.phase).toBe('loading');
    // No answer yet: waiting longer than the interval asks nothing more.
    await vi.advanceTimersByTimeAsync(5000);
    expect(asked).toBe(1);
    pending[0](new Response(JSON.stringify(STATUS), { headers: { 'content-type': 'application/json' } }));
    await vi.advanceTimersByTimeAsync(0);
    const s = store.getState().nodesStatus;
    expect(s.phase).toBe('ready');
    expect(s.status?.nodes?.map((n) => n.name)).toEqual(['n1', 'n2']);
    expect(s.status?.copies?.[0].node?.name).toBe('n1');
    await vi.advanceTimersByTimeAsync(999);
    expect(asked).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toBe(2);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toBe(2);
  });
});
