/**
 * The package as a stranger installs it: `npm pack` this checkout (and the explorer companion,
 * geoshard-explorer, built from it), then `npm install` the tarballs into an empty Node project,
 * from the npm cache when it holds everything, else the registry. Shared by scripts/pack.test.ts
 * (what an install brings and costs) and src/server/stranger.secure.test.ts (the whole adoption
 * path from the installed package against the secured node).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FLAGS = ['--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];

/** run executes a command in `cwd` and returns its stdout; throws with stderr on failure. */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A packed tarball: its path, the files it holds and its version. */
export interface Packed {
  tarball: string;
  files: string[];
  version: string;
}

/** pack runs `npm pack` on `folder` (default: this checkout, its built dist/) into `dir`. */
export function pack(dir: string, folder = ROOT): Packed {
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, folder], { cwd: ROOT, encoding: 'utf8' })) as { filename: string; version: string; files: { path: string }[] }[];
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path), version: info.version };
}

/** packExplorer builds the companion from this checkout (the app is rebuilt only when its sources are newer) and packs it into `dir`. */
export function packExplorer(dir: string): Packed {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-explorer.mjs')], { cwd: ROOT, stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
  return pack(dir, join(ROOT, 'dist', 'geoshard-explorer'));
}

/** consumer makes an empty Node project (ES modules) named `name` in `dir` and returns its folder. */
export function consumer(dir: string, name: string): string {
  const app = join(dir, name);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }));
  return app;
}

/** installIn runs `npm install` of `specs` in `cwd`, from the npm cache when it holds everything, else the registry. */
export function installIn(cwd: string, ...specs: string[]): void {
  try {
    run('npm', ['install', '--offline', ...FLAGS, ...specs], cwd);
  } catch {
    run('npm', ['install', '--prefer-offline', ...FLAGS, ...specs], cwd);
  }
}

/** packagesIn lists the packages installed in a node_modules folder ("@scope/name" for scoped ones), sorted. */
export function packagesIn(modules: string): string[] {
  return readdirSync(modules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]))
    .sort();
}

/** bytesIn sums the sizes of the files (and symlinks, not followed) under a folder. */
export function bytesIn(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? bytesIn(join(folder, e.name)) : lstatSync(join(folder, e.name)).size), 0);
}

/** freePort asks the system for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** What a page of the explorer showed in Chromium: its globe canvas (null when none) and the page's uncaught errors. */
export interface GlobeDrawn {
  canvas: { width: number; height: number; gl: boolean } | null;
  errors: string[];
}

/**
 * drawGlobe opens `url` in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium; WebGL
 * through SwiftShader) and waits until the explorer says it is ready (body data-ready), then
 * reports its globe canvas and the page's uncaught errors.
 */
export async function drawGlobe(url: string, timeoutMs = 120_000): Promise<GlobeDrawn> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(url);
    await tab.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: timeoutMs });
    const canvas = await tab.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('.globe-canvas canvas:not(.globe-labels)');
      return c ? { width: c.width, height: c.height, gl: !!(c.getContext('webgl2') ?? c.getContext('webgl')) } : null;
    });
    return { canvas, errors };
  } finally {
    await browser.close();
  }
}
