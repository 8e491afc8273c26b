/**
 * `npx tsx bench/pluginTraffic.bench.ts [--seconds S] [--rate R] [--threads T] [--heap 512m] [--record ID]`:
 * the geoshard plugin's per-cell traffic counters under load (plugin/…/TrafficCountersBench.java,
 * which says what it measures): R searches a second (default 10,000) of real coverings counted
 * for S seconds (default 130: longer than the 120 s the counters keep) by T threads (default 2),
 * in a JVM of the nodes' heap (512 MB, as scripts/cluster.mjs starts them). Prints the figures:
 * the rate reached, the summaries' bytes against their stated bound, the heap retained, what
 * counting adds to a search against the covering the processor computes anyway, and the
 * accuracy of the counts against exact ones. With --record ID the run goes into
 * bench/results.json with the machine, load and date.
 *
 * Builds the plugin's test classes with Maven (offline once its dependencies are fetched).
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { loadSampler, machine, recordRun, utcMinute } from './harness.ts';

const argv = process.argv.slice(2);
const arg = (name: string, fallback?: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const SECONDS = Number(arg('seconds', '130'));
const RATE = Number(arg('rate', '10000'));
const THREADS = Number(arg('threads', '2'));
const HEAP = arg('heap', '512m')!;
const RECORD = arg('record');
for (const [name, v] of [['seconds', SECONDS], ['rate', RATE], ['threads', THREADS]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} ${v} is invalid: expected a whole number of at least 1`);
}

const root = join(import.meta.dirname, '..');
const plugin = join(root, 'plugin');
const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';

function run(cmd: string, args: string[], what: string): string {
  const r = spawnSync(cmd, args, { cwd: plugin, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${(r.stdout ?? '').slice(-2000)}\n${(r.stderr ?? '').slice(-2000)}`);
  return r.stdout;
}

console.log('building the plugin test classes (mvn test-compile)...');
run('mvn', ['-q', 'test-compile'], 'mvn test-compile');
const cpFile = join(plugin, 'target', 'bench.classpath');
run('mvn', ['-q', 'dependency:build-classpath', `-Dmdep.outputFile=${cpFile}`, '-Dmdep.includeScope=test'], 'mvn dependency:build-classpath');
const cp = [join(plugin, 'target', 'test-classes'), join(plugin, 'target', 'classes'), readFileSync(cpFile, 'utf8').trim()].join(':');

const load = loadSampler();
const timer = setInterval(load.sample, 5000);
const started = utcMinute();
console.log(`counting ${RATE.toLocaleString('en-US')} searches/s for ${SECONDS} s on ${THREADS} threads (heap ${HEAP})...`);
const out = await new Promise<string>((resolve, reject) => {
  const p = spawn(java, [`-Xmx${HEAP}`, `-Xms${HEAP}`, '-cp', cp, 'org.geoshard.opensearch.TrafficCountersBench', String(SECONDS), String(RATE), String(THREADS)], { cwd: plugin });
  let text = '';
  let err = '';
  p.stdout.on('data', (d) => (text += d));
  p.stderr.on('data', (d) => (err += d));
  p.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`the bench JVM exited ${code}: ${err.slice(-2000)}`))));
});
clearInterval(timer);
load.sample();

interface BenchOut {
  seconds: number;
  searches: number;
  ratePerSecond: number;
  maxBehindMs: number;
  untracked: number;
  meanCellsPerSearch: number;
  coverNsPerSearch: number;
  countNsPerSearch: number;
  countOverCover: number;
  maxBytes: number;
  boundBytes: number;
  heapRetainedBytes: number;
  checkedSeconds: number;
  violations: number;
  worstError: number;
  worstErrorShare: number;
  errorBoundShare: number;
  distinctCellsPerSecondMax: number;
  listedCellsMax: number;
  windowSeconds: number;
  windowViolations: number;
  windowMaxError: number;
  windowTotal: number;
  readSecondNsMax: number;
  javaVersion: string;
}
const j = JSON.parse(out.trim().split('\n').pop()!) as BenchOut;
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
console.log(`
rate reached             ${j.ratePerSecond.toFixed(0)} searches/s (${j.searches.toLocaleString('en-US')} in ${j.seconds} s; the most a thread fell behind its schedule: ${j.maxBehindMs} ms; ${j.untracked.toLocaleString('en-US')} of a fifth index refused as untracked)
cells per search         ${j.meanCellsPerSearch.toFixed(1)} (real coverings, circles of 1 to 50 km)
summaries' bytes (max)   ${mb(j.maxBytes)} against the stated bound ${mb(j.boundBytes)} (${(j.maxBytes / j.boundBytes).toFixed(3)}×)
heap retained            ${mb(j.heapRetainedBytes)} after a full GC (arrays and object headers)
count per search         ${us(j.countNsPerSearch)} against ${us(j.coverNsPerSearch)} to compute the covering: ${j.countOverCover.toFixed(3)}×
accuracy, one second     ${j.checkedSeconds} seconds checked against exact counts, ${j.violations} broken guarantees; up to ${j.distinctCellsPerSecondMax.toLocaleString('en-US')} distinct cells a second; largest error ${j.worstError} (${pct(j.worstErrorShare)} of the second's additions; bound ${pct(j.errorBoundShare)})
accuracy, merged         ${j.windowSeconds} seconds merged: ${j.windowViolations} broken guarantees, largest error ${j.windowMaxError} of ${j.windowTotal.toLocaleString('en-US')} additions
read of a second         ${us(j.readSecondNsMax)} at most
(load ${load.range()}; ${machine()}; Java ${j.javaVersion}; ${started} UTC)`);

if (j.violations > 0 || j.windowViolations > 0) throw new Error('the counts broke their stated guarantees: see above');
if (j.maxBytes > j.boundBytes) throw new Error(`the summaries held ${j.maxBytes} bytes, over the bound ${j.boundBytes}`);

if (RECORD) {
  recordRun(RECORD, {
    what: `plugin/…/TrafficCountersBench.java: ${RATE.toLocaleString('en-US')} searches/s asked for ${SECONDS} s on ${THREADS} threads, real coverings (circles of 1 to 50 km) and a write into a random cell for every tenth search, four indices and a fifth refused, heap ${HEAP}; accuracy against exact counts of every tenth second of one index`,
    command: `npx tsx bench/pluginTraffic.bench.ts --seconds ${SECONDS} --rate ${RATE} --threads ${THREADS} --heap ${HEAP} --record ${RECORD}`,
    date: `${started}–${utcMinute().slice(11)}`,
    machine: `${machine()}, Java ${j.javaVersion}`,
    load: load.range(),
    source: 'docs/plugin.md',
    figures: {
      rate: `${Math.round(j.ratePerSecond).toLocaleString('en-US')} searches/s`,
      cellsPerSearch: j.meanCellsPerSearch.toFixed(1),
      maxBytes: mb(j.maxBytes),
      boundBytes: mb(j.boundBytes),
      bytesOverBound: `${(j.maxBytes / j.boundBytes).toFixed(3)}x`,
      heapRetained: mb(j.heapRetainedBytes),
      countPerSearch: us(j.countNsPerSearch),
      coverPerSearch: us(j.coverNsPerSearch),
      countOverCover: `${j.countOverCover.toFixed(3)}x`,
      checkedSeconds: String(j.checkedSeconds),
      violations: String(j.violations + Math.max(0, j.windowViolations)),
      distinctPerSecond: j.distinctCellsPerSecondMax.toLocaleString('en-US'),
      worstErrorShare: pct(j.worstErrorShare),
      errorBoundShare: pct(j.errorBoundShare),
      readSecond: us(j.readSecondNsMax),
    },
  });
}
