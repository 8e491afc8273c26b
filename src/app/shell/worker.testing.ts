/**
 * portWorker, for tests: a worker double that serves an API object with
 * comlink over a MessageChannel, as a module worker would (structured
 * clones, transfers, asynchronous delivery). terminate() closes both ports,
 * so calls in flight never answer, as with Worker.terminate().
 */
import { expose } from 'comlink';
import type { WorkerEndpoint } from './worker';

export function portWorker(api: object): WorkerEndpoint & { terminated: boolean } {
  const { port1, port2 } = new MessageChannel();
  expose(api, port2);
  const w = Object.assign(port1, {
    terminated: false,
    terminate() {
      w.terminated = true;
      port1.close();
      port2.close();
    },
  });
  return w;
}
