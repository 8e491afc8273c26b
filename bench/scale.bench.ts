/**
 * `npm run bench:scale -- [--docs 2000000,20000000] [--shards 6] [--dest-shards 12] [--writes 50]
 *  [--phases cells,reindex,audit] [--copies client,engine] [--keep] [--load-only]`
 *
 * The commands that read a whole index, at two sizes, each by the client path and the engine
 * path, on a flat, hash-sharded index of small located documents written by plain `_bulk`
 * (`gs-scale-src-<N>`, field `geo`; kept between runs, loaded again only when its count differs):
 *
 *   cells    `geoshard cells --from-index` (client: doc values read by this process; engine:
 *            the cluster's aggregation, when the CLI has `--engine`);
 *   reindex  `geoshard reindex` into a 12-shard geosharded index behind an alias (copy, verify,
 *            catch-up, switch), with a plain writer running through the alias the whole time
 *            (`--writes` operations/s: creates, updates, deletes); afterwards every write the
 *            node acknowledged is there exactly once with its last content (or gone), checked
 *            apart from the command;
 *   audit    `geoshard audit` of that index (client, and engine when the CLI has `--engine`): clean.
 * Each command is the real CLI in a child process under GNU time: wall time, the client's peak
 * RSS, and the cluster's CPU over the command (bench/cpu.ts: /proc of the local nodes). After a
 * reindex the alias goes back to the source, its write block is lifted and the new index deleted,
 * so the next copy mode starts alike (what the writer wrote stays in the source).
 *
 * Needs a node (OPENSEARCH_URL, default http://127.0.0.1:9200) with the reindex module (2.19:
 * scripts/cluster.mjs adds it; 3.x ships it) and disk for two copies of the largest index.
 * Results: test-results/bench-scale.json and a table on stdout, with the machine, the load
 * average before and after each command, and the date.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { mulberry32 } from '../src/core/testutil.ts';
import { loadGazetteer } from '../src/data/places.ts';
import { ROOT, liveClient } from '../src/testing/testkit.ts';
import { cpuReader } from './cpu.ts';
import { OpenSearchError } from '../src/cluster/clientErrors.ts';

const argv = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const list = (name: string, dflt: string) => arg(name, dflt).split(',').filter(Boolean);
const num = (name: string, dflt: number) => {
  const v = Number(arg(name, String(dflt)));
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} ${arg(name, '')} is invalid: expected a number >= 0`);
  return v;
};
const SIZES = list('docs', '2000000,20000000').map(Number);
for (const n of SIZES) if (!Number.isInteger(n) || n < 1000) throw new Error(`--docs: ${n} is not a document count >= 1000`);
const SHARDS = num('shards', 6);
const DEST_SHARDS = num('dest-shards', 12);
const WRITES = num('writes', 50);
const PHASES = list('phases', 'cells,reindex,audit');
const COPIES = list('copies', 'client,engine');
const KEEP = argv.includes('--keep');
/** Only build the source indexes (a long step at 20 M), then stop. */
const LOAD_ONLY = argv.includes('--load-only');
const LOCKS = 'gs-scale-locks';

const client = liveClient();
const cpu = await cpuReader(client);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(os.tmpdir(), 'gs-scale-'));
const load = () => os.loadavg().map((x) => +x.toFixed(2));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const BIN = resolve(ROOT, 'dist', 'cli', 'bin.js');

/** One measured command. */
interface Row {
  docs: number;
  phase: string;
  path: string;
  seconds: number;
  docsPerSecond: number;
  usPerDoc: number;
  peakRssMB: number;
  clientCpuS: number;
  nodeCpuS: number;
  loadBefore: number[];
  loadAfter: number[];
  /** The highest RSS sampled in each step the command's progress lines name (MB). */
  rssBySteps: Record<string, number>;
  note?: string;
}
const rows: Row[] = [];

/** The step a progress line of the CLI names (for the RSS per step): its first words after "geoshard <command>: ". */
const stepOf = (line: string) => (/^geoshard \w+: (copy|verify|catch-up|switch|switched|created|cells|audit)/.exec(line)?.[1] ?? null);

/** The RSS (MB) of the process /usr/bin/time runs (its only child), or null once it is gone. */
function childRssMB(timePid: number): number | null {
  try {
    const kid = readFileSync(`/proc/${timePid}/task/${timePid}/children`, 'utf8').trim().split(/\s+/)[0];
    if (!kid) return null;
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${kid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs the built CLI under GNU time; returns its exit code, output, wall seconds, peak RSS (MB),
 * CPU seconds, and the highest RSS sampled (every 500 ms, /proc) in each step its progress lines name.
 */
async function geoshard(args: string[], echo: RegExp | null = /./): Promise<{ code: number; out: string; err: string; seconds: number; rssMB: number; cpuS: number; rssBySteps: Record<string, number> }> {
  const timeFile = join(dir, 'time.txt');
  const env = { ...process.env, GEOSHARD_LOCK_INDEX: LOCKS, GEOSHARD_SPILL_DIR: join(dir, 'spill') };
  const child = spawn('/usr/bin/time', ['-f', '%M %e %U %S', '-o', timeFile, process.execPath, BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let partial = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b: Buffer) => {
    err += b;
    partial += b;
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const l of lines) {
      step = stepOf(l) ?? step;
      if (echo?.test(l)) console.log(`    ${l.slice(0, 220)}`);
    }
  });
  let step = 'start';
  const rssBySteps: Record<string, number> = {};
  const sampler = setInterval(() => {
    const mb = child.pid ? childRssMB(child.pid) : null;
    if (mb !== null) rssBySteps[step] = Math.max(rssBySteps[step] ?? 0, Math.round(mb));
  }, 500);
  const code = await new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  clearInterval(sampler);
  const [kb, wall, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { code, out, err, seconds: wall, rssMB: kb / 1024, cpuS: user + sys, rssBySteps };
}

async function measured(docs: number, phase: string, path: string, args: string[], echo: RegExp | null = /./): Promise<{ out: string; err: string; row: Row }> {
  const loadBefore = load();
  const c0 = await cpu.read();
  const r = await geoshard(args, echo);
  const c1 = await cpu.read();
  if (r.code !== 0) throw new Error(`geoshard ${args.join(' ')} exited ${r.code}:\n${r.err.slice(-3000)}\n${r.out.slice(-2000)}`);
  const row: Row = {
    docs,
    phase,
    path,
    seconds: +r.seconds.toFixed(1),
    docsPerSecond: Math.round(docs / r.seconds),
    usPerDoc: +((r.seconds * 1e6) / docs).toFixed(2),
    peakRssMB: +r.rssMB.toFixed(0),
    clientCpuS: +r.cpuS.toFixed(1),
    nodeCpuS: +((c1 - c0) / 1000).toFixed(1),
    loadBefore,
    loadAfter: load(),
    rssBySteps: r.rssBySteps,
  };
  rows.push(row);
  console.log(`  ${phase} (${path}): ${row.seconds} s, ${fmt(row.docsPerSecond)} documents/s, client peak RSS ${row.peakRssMB} MB, client CPU ${row.clientCpuS} s, cluster CPU ${row.nodeCpuS} s; RSS by step ${JSON.stringify(row.rssBySteps)}; load ${loadBefore.join(' ')} -> ${row.loadAfter.join(' ')}`);
  writeResults();
  return { out: r.out, err: r.err, row };
}

function writeResults() {
  mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGiB: +(os.totalmem() / 2 ** 30).toFixed(1), node: process.version };
  writeFileSync(resolve(ROOT, 'test-results', 'bench-scale.json'), JSON.stringify({ date: new Date().toISOString(), machine, cpuSource: cpu.source, sizes: SIZES, rows }, null, 2));
}

async function drop(name: string) {
  await client.request('DELETE', `/${name}`, { okStatuses: [404] });
}

/** Loads N small located documents into a hash-sharded index with plain _bulk (kept when it already holds N). */
async function ensureSource(index: string, n: number): Promise<void> {
  // (A load cut short left refresh off: refresh first, or the count misses what it wrote.)
  await client.request('POST', `/${index}/_refresh`, { okStatuses: [404], timeoutMs: 600_000 });
  const have = await client.request<{ count: number }>('POST', `/${index}/_count`, { okStatuses: [404] });
  if (have.status === 200) {
    const blocked = await client.request<Record<string, { settings: { index?: { blocks?: { write?: string } } } }>>('GET', `/${index}/_settings/index.blocks.write`);
    if (Object.values(blocked.body)[0]?.settings.index?.blocks?.write === 'true') await client.admin('PUT', `/${index}/_settings`, { body: { index: { 'blocks.write': null } } });
    // The writer of an earlier run added and deleted a few: within 1 % is the same index.
    if (Math.abs(have.body.count - n) < n * 0.01) return void console.log(`${index}: ${fmt(have.body.count)} documents (kept)`);
  }
  const BATCH = 10_000;
  // A load cut short (the index holds fewer, and no writer ran: every id is s<k>) resumes: batches
  // are written two at a time, so all before the last two complete ones are there. Ids are
  // written again over what is there, with the same content (the generator is replayed).
  const partial = have.status === 200 && have.body.count < n && (await client.request<{ count: number }>('POST', `/${index}/_count`, { body: { query: { prefix: { id: 'w' } } } })).body.count === 0;
  const from = partial ? Math.max(0, (Math.floor(have.body.count / BATCH) - 2) * BATCH) : 0;
  if (!partial) {
    await drop(index);
    await client.admin('PUT', `/${index}`, {
      body: {
        settings: { index: { number_of_shards: SHARDS, number_of_replicas: 0, refresh_interval: '-1' } },
        mappings: { dynamic: 'strict', properties: { id: { type: 'keyword' }, name: { type: 'keyword' }, n: { type: 'integer' }, geo: { type: 'geo_point' } } },
      },
    });
  } else {
    await client.admin('PUT', `/${index}/_settings`, { body: { index: { refresh_interval: '-1' } } });
    console.log(`${index}: ${fmt(have.body.count)} of ${fmt(n)} documents: resuming the load at ${fmt(from)}`);
  }
  const g = loadGazetteer().filter((c) => c.population >= 1000);
  const rand = mulberry32(n);
  for (let i = 0; i < from * 3; i++) rand(); // three draws a document
  const t0 = performance.now();
  let next = from;
  const worker = async () => {
    while (next < n) {
      const start = next;
      next = Math.min(n, next + BATCH);
      const lines: string[] = [];
      for (let i = start; i < next; i++) {
        // Around a real place, up to ~0.2° away: dense where people live, as located documents are.
        const c = g[Math.floor(rand() * g.length)];
        const lat = Math.max(-89.9, Math.min(89.9, c.loc.coordinates[1] + (rand() - 0.5) * 0.4));
        let lon = c.loc.coordinates[0] + (rand() - 0.5) * 0.4;
        lon = lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
        lines.push(JSON.stringify({ index: { _id: `s${i}` } }), JSON.stringify({ id: `s${i}`, name: c.name, n: i, geo: { lat: +lat.toFixed(6), lon: +lon.toFixed(6) } }));
      }
      const r = await client.request<{ errors: boolean }>('POST', `/${index}/_bulk`, { body: lines.join('\n') + '\n', query: { filter_path: 'errors' }, timeoutMs: 300_000 });
      if (r.body.errors) throw new Error(`loading ${index}: a bulk request had errors`);
      if ((next / BATCH) % 100 === 0) console.log(`  loaded ${fmt(next)}/${fmt(n)} (${fmt((next - from) / ((performance.now() - t0) / 1000))} documents/s)`);
    }
  };
  await Promise.all([worker(), worker()]);
  await client.admin('PUT', `/${index}/_settings`, { body: { index: { refresh_interval: null } } });
  await client.request('POST', `/${index}/_refresh`, { timeoutMs: 600_000 });
  await client.request('POST', `/${index}/_forcemerge`, { query: { max_num_segments: '8' }, timeoutMs: 3_600_000 });
  console.log(`${index}: loaded ${fmt(n)} documents with plain _bulk in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/**
 * A plain writer through the alias (no routing: the alias's index routes, by hash before the
 * switch and by its pipeline after), `rate` operations a second: creates, updates that keep the
 * location, and deletes that find the routing with a search by id. A write refused by the
 * switch's write block is sent again after 100 ms. Records what the node acknowledged.
 */
class Writer {
  readonly truth = new Map<string, Record<string, unknown> | null>();
  readonly stats = { creates: 0, updates: 0, deletes: 0, refused: 0 };
  private stopped = false;
  private k = 0;
  private readonly rand: () => number;
  /** Ids this run creates: new in every run (a source keeps what earlier runs' writers wrote). */
  private readonly prefix: string;
  constructor(
    private readonly alias: string,
    private readonly n: number,
    private readonly rate: number,
    seed = Date.now() % 1_000_000_007,
  ) {
    // A seed of its own per run: with one fixed seed a second run would delete what the first
    // deleted (no-ops) and create the same ids again (overwrites), so no delete would test the switch.
    this.rand = mulberry32(seed);
    this.prefix = `w${seed.toString(36)}-`;
  }
  stop() {
    this.stopped = true;
  }
  private async retry(f: () => Promise<unknown>) {
    for (;;) {
      try {
        return await f();
      } catch (e) {
        const blocked = e instanceof OpenSearchError && e.status === 403 && /cluster_block/.test(e.message);
        const stale = e instanceof OpenSearchError && e.status === 400 && /routing_missing/.test(e.message);
        if (!blocked && !stale) throw e;
        this.stats.refused++;
        await sleep(100);
      }
    }
  }
  async run() {
    if (this.rate <= 0) return;
    const every = 1000 / this.rate;
    while (!this.stopped) {
      const t = performance.now();
      const r = this.rand();
      if (r < 0.4) {
        const id = `${this.prefix}${this.k++}`;
        const s = { id, name: 'writer', n: this.k, geo: { lat: +(this.rand() * 120 - 60).toFixed(6), lon: +(this.rand() * 360 - 180).toFixed(6) } };
        await this.retry(() => client.request('PUT', `/${this.alias}/_doc/${id}`, { body: s }));
        this.truth.set(id, s), this.stats.creates++;
      } else {
        const id = `s${Math.floor(this.rand() * this.n)}`;
        if (this.truth.get(id) === null) continue;
        if (r < 0.8) {
          // An update keeps the location (so the routing): read it, write it back with a new n.
          await this.retry(async () => {
            const found = await client.request<{ hits: { hits: { _routing?: string; _source: Record<string, unknown> }[] } }>('POST', `/${this.alias}/_search`, { body: { size: 2, query: { ids: { values: [id] } } } });
            const h = found.body.hits.hits[0];
            if (!h) return;
            const s = { ...h._source, n: -1 - this.stats.updates };
            await client.request('PUT', `/${this.alias}/_doc/${id}`, { body: s, query: h._routing ? { routing: h._routing } : {} });
            this.truth.set(id, s), this.stats.updates++;
          });
        } else {
          await this.retry(async () => {
            const found = await client.request<{ hits: { hits: { _routing?: string }[] } }>('POST', `/${this.alias}/_search`, { body: { size: 2, query: { ids: { values: [id] } } } });
            for (const h of found.body.hits.hits) await client.request('DELETE', `/${this.alias}/_doc/${id}`, { query: h._routing ? { routing: h._routing } : {}, okStatuses: [404] });
            this.truth.set(id, null), this.stats.deletes++;
          });
        }
      }
      const wait = every - (performance.now() - t);
      if (wait > 0) await sleep(wait);
    }
  }
  /** Checks the index behind the alias against what was acknowledged: every id exactly once with its last source, or gone. */
  async check(): Promise<{ checked: number; lost: string[]; twice: string[]; stale: string[]; resurrected: string[] }> {
    await client.request('POST', `/${this.alias}/_refresh`, { timeoutMs: 300_000 });
    const ids = [...this.truth.keys()];
    const held = new Map<string, Record<string, unknown>[]>();
    for (let i = 0; i < ids.length; i += 1000) {
      const r = await client.request<{ hits: { hits: { _id: string; _source: Record<string, unknown> }[] } }>('POST', `/${this.alias}/_search`, { body: { size: 2000, query: { ids: { values: ids.slice(i, i + 1000) } } } });
      for (const h of r.body.hits.hits) held.set(h._id, [...(held.get(h._id) ?? []), h._source]);
    }
    const out = { checked: ids.length, lost: [] as string[], twice: [] as string[], stale: [] as string[], resurrected: [] as string[] };
    const same = (a: Record<string, unknown>, b: Record<string, unknown>) => a.n === b.n && a.id === b.id;
    for (const [id, s] of this.truth) {
      const h = held.get(id) ?? [];
      if (s === null) h.length > 0 && out.resurrected.push(id);
      else if (h.length === 0) out.lost.push(id);
      else if (h.length > 1) out.twice.push(id);
      else if (!same(h[0], s)) out.stale.push(id);
    }
    return out;
  }
}

const cellsHelp = await geoshard(['cells', '--help'], null);
const auditHelp = await geoshard(['audit', '--help'], null);
const engineCells = /--engine/.test(cellsHelp.out + cellsHelp.err);
const engineAudit = /--engine/.test(auditHelp.out + auditHelp.err);
console.log(`geoshard scale bench, ${new Date().toISOString()}: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, cluster CPU from ${cpu.source}; sizes ${SIZES.map(fmt).join(', ')}; engine paths: cells ${engineCells}, audit ${engineAudit}, reindex true`);

for (const N of SIZES) {
  const SRC = `gs-scale-src-${N}`;
  const ALIAS = `gs-scale-${N}`;
  await ensureSource(SRC, N);
  if (LOAD_ONLY) continue;
  const docs = (await client.request<{ count: number }>('POST', `/${SRC}/_count`)).body.count;
  const cellsPath = join(dir, `cells-${N}.csv`);
  const filePath = join(dir, `boundaries-${N}.json`);
  console.log(`\n== ${fmt(docs)} documents`);
  const cellPaths = ['client', ...(engineCells ? ['cluster'] : [])];
  for (const p of PHASES.includes('cells') ? cellPaths : ['client']) {
    const { err } = await measured(docs, 'cells', p, ['cells', '--from-index', SRC, '--field', 'geo', '--out', cellsPath, ...(engineCells ? ['--engine', p] : [])], null);
    void err;
  }
  const bal = await geoshard(['balance', '--cells', cellsPath, '--min', String(DEST_SHARDS), '--max', String(DEST_SHARDS), '--index', ALIAS, '--out', filePath, '--created-at', '2026-12-03T00:00:00.000Z'], null);
  if (bal.code !== 0) throw new Error(`balance failed: ${bal.err}`);
  if (!PHASES.includes('reindex')) continue;
  for (const copy of COPIES) {
    const DEST = `gs-scale-${N}-${copy}`;
    await drop(DEST);
    // The alias clients use: on the source before the reindex.
    const a = await client.request<Record<string, unknown>>('GET', `/_alias/${ALIAS}`, { okStatuses: [404] });
    const targets = a.status === 404 ? [] : Object.keys(a.body);
    await client.admin('POST', '/_aliases', { body: { actions: [...targets.map((index) => ({ remove: { index, alias: ALIAS } })), { add: { index: SRC, alias: ALIAS } }] } });
    await client.request('DELETE', `/${LOCKS}`, { okStatuses: [404] });
    const writer = new Writer(ALIAS, N, WRITES);
    const writing = writer.run();
    await sleep(1000);
    const { row, err } = await measured(docs, 'reindex', copy, ['reindex', '--from', SRC, '--to', DEST, '--boundaries', filePath, '--alias', ALIAS, '--field', 'geo', '--copy', copy], /verify: [\d,]+ documents|catch-up|switched|copy.*100%|cluster copies|fixed/);
    await sleep(2000);
    writer.stop();
    await writing;
    const ck = await writer.check();
    const ok = ck.lost.length + ck.twice.length + ck.stale.length + ck.resurrected.length === 0;
    row.note = `writer ${JSON.stringify(writer.stats)}; acknowledged writes checked ${ck.checked}: ${ok ? 'every one there exactly once' : JSON.stringify({ lost: ck.lost.slice(0, 5), twice: ck.twice.slice(0, 5), stale: ck.stale.slice(0, 5), resurrected: ck.resurrected.slice(0, 5) })}; ${(/copy[^\n]*documents\/s/.exec(err.split('\n').filter((l) => /copy/.test(l)).pop() ?? '') ?? [''])[0]}; ${(/blocked \d+ ms before the alias moved \([^)]*\)/.exec(err) ?? ['switch: not found'])[0]}`;
    console.log(`  ${row.note}`);
    writeResults();
    if (!ok) throw new Error(`the reindex lost or doubled acknowledged writes: ${row.note}`);
    if (PHASES.includes('audit')) {
      for (const p of ['client', ...(engineAudit ? ['cluster'] : [])]) {
        const { out } = await measured(docs, 'audit', p, ['audit', '--index', DEST, '--field', 'geo', ...(engineAudit ? ['--engine', p] : [])], null);
        if (!/every document is on a right shard/.test(out)) throw new Error(`the audit of ${DEST} (${p}) is not clean:\n${out.slice(0, 2000)}`);
      }
    }
    if (!KEEP) {
      // Back to the start: the alias on the source, its write block lifted, the new index gone.
      await client.admin('POST', '/_aliases', { body: { actions: [{ remove: { index: DEST, alias: ALIAS } }, { add: { index: SRC, alias: ALIAS } }] } });
      await client.admin('PUT', `/${SRC}/_settings`, { body: { index: { 'blocks.write': null } } });
      await drop(DEST);
    }
  }
}

// Ratios at the largest size against the smallest: time per document and peak RSS.
if (SIZES.length > 1) {
  const lo = Math.min(...SIZES);
  const hi = Math.max(...SIZES);
  console.log(`\n== ${fmt(hi)} against ${fmt(lo)} documents`);
  for (const r of rows.filter((r) => r.docs >= hi * 0.99)) {
    const b = rows.find((x) => x.phase === r.phase && x.path === r.path && x.docs <= lo * 1.01);
    if (!b) continue;
    console.log(`  ${r.phase} (${r.path}): time per document ${(r.usPerDoc / b.usPerDoc).toFixed(2)}x, peak RSS ${(r.peakRssMB / b.peakRssMB).toFixed(2)}x (${b.peakRssMB} -> ${r.peakRssMB} MB)`);
  }
}
writeResults();
rmSync(dir, { recursive: true, force: true });
await client.close();
