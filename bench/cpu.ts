/**
 * OpenSearch's own CPU time, for the search benches (bench/settings.bench.ts,
 * bench/capacity.bench.ts, bench/live.bench.ts).
 *
 * `_nodes/stats/process` serves a copy refreshed at most once a second
 * (`monitor.process.refresh_interval`, 1 s by default), so a block of a few
 * seconds read through it is off by up to a second of CPU on each end. When
 * every node's JVM runs on this machine (a local cluster:
 * `_nodes/process` gives each node's pid and /proc has it), the CPU time is
 * read from /proc/<pid>/stat instead (utime + stime, in clock ticks of 10 ms),
 * exact at the moment of the call; otherwise from node stats (the live API's
 * reader, src/server/measure.ts readNodeStats).
 */
import { readFileSync } from 'node:fs';
import type { OpenSearchClient } from '../src/cluster/client.ts';
import { readNodeStats } from '../src/server/measure.ts';

/** A reader of the cluster's CPU time: ms used so far by all its nodes' processes, and where it is read from. */
export interface CpuReader {
  source: 'proc' | 'node stats';
  pids: number[];
  read: () => Promise<number>;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime is field 14, stime field 15.
  return ((Number(rest[11]) + Number(rest[12])) * 1000) / TICKS_PER_S;
}

/** cpuReader returns the best CPU reader for the cluster: /proc when every node's pid is a local java process, else node stats. */
export async function cpuReader(client: OpenSearchClient): Promise<CpuReader> {
  const info = await client.get<{ nodes: Record<string, { process?: { id?: number } }> }>('/_nodes/process');
  const pids = Object.values(info.nodes).map((n) => n.process?.id ?? -1);
  const local = pids.every((pid) => {
    try {
      return pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('org.opensearch.bootstrap.OpenSearch');
    } catch {
      return false;
    }
  });
  if (local) return { source: 'proc', pids, read: async () => pids.reduce((s, pid) => s + procCpuMs(pid), 0) };
  return {
    source: 'node stats',
    pids: [],
    read: async () => (await readNodeStats(client)).cpuMs,
  };
}
