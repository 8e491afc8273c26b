/**
 * CLI cold start: `geoshard route` and `geoshard cover` of a 1,000 km circle, each run as a
 * fresh process of the built JavaScript (dist/cli/bin.js, what `npx geoshard` runs), beside
 * baselines measured in the same run, interleaved round by round: a bare `node -e 0` (the
 * floor any Node command pays) and the same commands run from the TypeScript sources through
 * tsx (how `geoshard` ran before it was built). Targets (issue 12): route ≤ 0.2 s, cover of
 * 1,000 km ≤ 0.5 s.
 *
 * Run alone: npx tsx bench/cli.bench.ts [--quick] [--skip-build] [--unbundled]   (npm run bench:cli);
 * `npm run bench` runs it via runBench. Builds dist/ first (npm run build:lib) unless --skip-build.
 * `--unbundled` adds the CLI as tsc alone builds it (one file per module, s2js's CommonJS build
 * through Node's ESM loader: what dist/cli was before build:lib bundled it), compiled into
 * .bench-unbundled/ (removed afterwards), as a third baseline.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Row {
  name: string;
  args: string[];
  /** Median and fastest wall time of a whole process, in milliseconds. */
  medianMs: number;
  minMs: number;
  /** Median CPU time (user + system) of the process, in milliseconds: what it costs on a quiet machine. */
  cpuMs: number;
  targetMs?: number;
}

const ROUTE = ['route', '--lat', '37.77', '--lng', '-122.42'];
const COVER = ['cover', '--lat', '40', '--lng', '-100', '--radius', '1000km'];

const TIME = '/usr/bin/time';
const haveTime = existsSync(TIME);

/**
 * runOnce runs a command to completion and returns its wall time and, where GNU time is
 * installed, its CPU time (user + system; on a loaded machine the wall time includes
 * waiting for a core, the CPU time does not). Throws if the command fails.
 */
function runOnce(args: string[], cwd: string): { wallMs: number; cpuMs: number } {
  const [cmd, argv] = haveTime ? [TIME, ['-f', 'cpu %U %S', process.execPath, ...args]] : [process.execPath, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { wallMs, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function runBench({ root, quick, skipBuild = false, unbundled = false }: { root: string; quick: boolean; skipBuild?: boolean; unbundled?: boolean }): Promise<Row[]> {
  if (!skipBuild) execFileSync('npm', ['run', '--silent', 'build:lib'], { cwd: root, stdio: 'inherit' });
  const bin = join(root, 'dist', 'cli', 'bin.js');
  const src = join(root, 'src', 'cli', 'bin.ts');
  // Two levels below the root, as dist/cli is, so the CLI finds data/ the same way.
  const unbundledDir = join(root, '.bench-unbundled');
  const plain = join(unbundledDir, 'cli', 'bin.js');
  if (unbundled) {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', unbundledDir], { cwd: root, stdio: 'inherit' });
  }
  const cases: Omit<Row, 'medianMs' | 'minMs' | 'cpuMs'>[] = [
    { name: 'node -e 0 (baseline: Node startup)', args: ['-e', '0'] },
    { name: 'route, built (dist/cli/bin.js)', args: [bin, ...ROUTE], targetMs: 200 },
    { name: 'cover 1,000 km, built', args: [bin, ...COVER], targetMs: 500 },
    ...(unbundled
      ? [
          { name: 'route, tsc build unbundled (baseline)', args: [plain, ...ROUTE] },
          { name: 'cover 1,000 km, tsc build unbundled (baseline)', args: [plain, ...COVER] },
        ]
      : []),
    { name: 'route, sources through tsx (baseline)', args: ['--import', 'tsx', src, ...ROUTE] },
    { name: 'cover 1,000 km, sources through tsx (baseline)', args: ['--import', 'tsx', src, ...COVER] },
  ];
  const rounds = quick ? 3 : 9;
  const wall = cases.map(() => [] as number[]);
  const cpu = cases.map(() => [] as number[]);
  try {
    // One unrecorded round warms the file cache; then rounds interleave the cases.
    for (const c of cases) runOnce(c.args, root);
    for (let r = 0; r < rounds; r++) {
      cases.forEach((c, i) => {
        const t = runOnce(c.args, root);
        wall[i].push(t.wallMs);
        cpu[i].push(t.cpuMs);
      });
    }
  } finally {
    if (unbundled) rmSync(unbundledDir, { recursive: true, force: true });
  }
  const rows: Row[] = cases.map((c, i) => ({ ...c, medianMs: median(wall[i]), minMs: Math.min(...wall[i]), cpuMs: median(cpu[i]) }));

  const [load1] = loadavg();
  console.log(`\nCLI cold start (whole process, median of ${rounds}, interleaved; Node ${process.version}, ${cpus().length} cores, load ${load1.toFixed(1)})`);
  console.log(`${'command'.padEnd(50)} ${'wall'.padStart(9)} ${'min wall'.padStart(9)} ${'cpu'.padStart(9)}  target (wall)`);
  for (const r of rows) {
    // On a loaded machine the wall time mostly waits for a core; the CPU time is what the process costs (its wall time when the machine is quiet).
    const verdict = r.targetMs === undefined ? '' : `≤ ${r.targetMs} ms: wall ${r.medianMs <= r.targetMs ? 'met' : 'NOT met'}, cpu ${r.cpuMs <= r.targetMs ? 'met' : 'NOT met'}`;
    console.log(`${r.name.padEnd(50)} ${r.medianMs.toFixed(0).padStart(6)} ms ${r.minMs.toFixed(0).padStart(6)} ms ${r.cpuMs.toFixed(0).padStart(6)} ms  ${verdict}`);
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  await runBench({ root, quick: process.argv.includes('--quick'), skipBuild: process.argv.includes('--skip-build'), unbundled: process.argv.includes('--unbundled') });
}
