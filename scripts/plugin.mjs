#!/usr/bin/env node
/**
 * Builds and tests the geoshard OpenSearch plugin (plugin/, Maven): one zip per supported
 * OpenSearch version, plugin/dist/geoshard-<pluginVersion>-os<version>.zip (gitignored), each
 * with a descriptor naming that exact version. Needs only Maven Central.
 *
 *   node scripts/plugin.mjs build [--version X] [--skip-tests]   Java tests (JUnit) + zip, every version or X
 *   node scripts/plugin.mjs test                                  the Java tests alone (against 2.19.6)
 *   node scripts/plugin.mjs zip <version>                         the zip's path (builds it when missing)
 *
 * OpenSearch 3.x jars need Java 21+: the build uses a JDK of 21 or more from /usr/lib/jvm (or
 * GEOSHARD_JAVA21_HOME) for them, with --release 21; 2.19 builds with --release 17 on any JDK 17+.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PLUGIN_VERSION = '0.1.0';
export const SUPPORTED = ['2.19.6', '2.19.4', '3.8.0'];
const root = new URL('..', import.meta.url).pathname;
const pluginDir = join(root, 'plugin');

/** The zip of an OpenSearch version. */
export function zipPath(version) {
  return join(pluginDir, 'dist', `geoshard-${PLUGIN_VERSION}-os${version}.zip`);
}

function javaMajor(home) {
  const r = spawnSync(join(home, 'bin', 'java'), ['-version'], { encoding: 'utf8' });
  const m = /version "(\d+)/.exec(r.stderr ?? '');
  return m ? Number(m[1]) : 0;
}

/** A JDK home of at least `major`: JAVA_HOME, GEOSHARD_JAVA21_HOME, or the newest under /usr/lib/jvm. */
function jdkHome(major) {
  const candidates = [process.env.GEOSHARD_JAVA21_HOME, process.env.JAVA_HOME].filter(Boolean);
  if (existsSync('/usr/lib/jvm')) candidates.push(...readdirSync('/usr/lib/jvm').map((d) => join('/usr/lib/jvm', d)));
  const ok = candidates.filter((h) => existsSync(join(h, 'bin', 'javac'))).map((h) => ({ h, v: javaMajor(h) })).filter((c) => c.v >= major).sort((a, b) => b.v - a.v);
  if (ok.length === 0) throw new Error(`no JDK ${major}+ found (JAVA_HOME, GEOSHARD_JAVA21_HOME or /usr/lib/jvm): OpenSearch ${major >= 21 ? '3.x' : '2.x'} plugins need one`);
  return ok[0].h;
}

function mvn(version, goals, extra = []) {
  const major = Number(version.split('.')[0]);
  const release = major >= 3 ? 21 : 17;
  const home = jdkHome(release);
  const args = ['-q', '-B', `-Dopensearch.version=${version}`, `-Dopensearch.major=${major}`, `-Djava.release=${release}`, ...extra, ...goals];
  console.log(`plugin: mvn ${args.join(' ')} (JDK ${home})`);
  const t = Date.now();
  const r = spawnSync('mvn', args, { cwd: pluginDir, stdio: 'inherit', env: { ...process.env, JAVA_HOME: home } });
  if (r.status !== 0) throw new Error(`mvn ${goals.join(' ')} for OpenSearch ${version} failed (exit ${r.status})`);
  console.log(`plugin: OpenSearch ${version}: ${goals.join(' ')} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/** Builds the zip of `version` (tests run unless skipTests). */
export function build(version, { skipTests = false } = {}) {
  if (!SUPPORTED.includes(version)) throw new Error(`OpenSearch ${version} is not a supported version of the plugin: expected one of ${SUPPORTED.join(', ')}`);
  mvn(version, ['clean', 'package'], skipTests ? ['-DskipTests'] : []);
  if (!existsSync(zipPath(version))) throw new Error(`the build did not write ${zipPath(version)}`);
  return zipPath(version);
}

/** The zip of `version`, built (without tests) when missing. */
export function ensureZip(version) {
  return existsSync(zipPath(version)) ? zipPath(version) : build(version, { skipTests: true });
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [cmd, ...rest] = process.argv.slice(2);
  const flag = (name) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  try {
    if (cmd === 'build') {
      const versions = flag('--version') ? [flag('--version')] : SUPPORTED;
      // The Java tests run once (they test the plugin's own code, the same for every version), then each zip.
      versions.forEach((v, i) => console.log(`plugin: ${build(v, { skipTests: rest.includes('--skip-tests') || i > 0 })}`));
    } else if (cmd === 'test') {
      mvn('2.19.6', ['test']);
    } else if (cmd === 'zip') {
      console.log(ensureZip(rest[0]));
    } else {
      console.error('usage: node scripts/plugin.mjs build [--version X] [--skip-tests] | test | zip <version>');
      process.exit(2);
    }
  } catch (e) {
    console.error(`plugin: ${e.message}`);
    process.exit(1);
  }
}
