#!/usr/bin/env node
// Local single-node OpenSearch for geoshard development and tests.
//
//   node scripts/cluster.mjs start    fetch (first time), install and start a node, wait for yellow
//   node scripts/cluster.mjs stop     stop the node that `start` started (exit 0 if none)
//   node scripts/cluster.mjs status   print version and health; exit 0 if up, 1 if down
//
// Node built-ins only. The official OpenSearch distribution (integ-test-zip, no bundled JDK)
// and the parent-join module are fetched from Maven Central with `mvn` into a cache folder
// outside git, and the node runs on the machine's Java (11..23; OpenSearch 2.x needs the
// Security Manager, which Java 24+ no longer has).
//
// Environment:
//   OPENSEARCH_URL           external cluster: `start`/`status` only check it, nothing is started
//   OPENSEARCH_PORT          HTTP port of the local node (default 9200)
//   OPENSEARCH_VERSION       OpenSearch 2.x version to fetch (default 2.19.6)
//   OPENSEARCH_HEAP          JVM heap, e.g. 1g or 512m (default 1g)
//   OPENSEARCH_START_TIMEOUT seconds to wait for the node to become yellow (default 120)
//   OPENSEARCH_JAVA_HOME     Java home to run the node with (default: found automatically)
//   GEOSHARD_CACHE           cache root (default ~/.cache/geoshard; as root /var/cache/geoshard,
//                            because the node runs as a system user that cannot enter /root)
//
// Layout of <cache root>/opensearch-<version>/:
//   download/   the zip and module jars as fetched by Maven
//   home/       the unpacked distribution (OPENSEARCH_HOME), parent-join added to modules/
//   data/ logs/ tmp/   node data, logs (logs/geoshard.log, logs/console.log), temp dir
//   opensearch.pid     pid of the running node

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const VERSION = process.env.OPENSEARCH_VERSION || '2.19.6';
const PORT = Number(process.env.OPENSEARCH_PORT || 9200);
const EXTERNAL_URL = (process.env.OPENSEARCH_URL || '').replace(/\/+$/, '');
const LOCAL_URL = `http://127.0.0.1:${PORT}`;
const URL_ = EXTERNAL_URL || LOCAL_URL;
const HEAP = process.env.OPENSEARCH_HEAP || '1g';
const START_TIMEOUT_S = Number(process.env.OPENSEARCH_START_TIMEOUT || 120);
const STOP_TIMEOUT_S = 30;
const RUN_USER = 'opensearch';
const CLUSTER_NAME = 'geoshard';
const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

const CACHE_ROOT = process.env.GEOSHARD_CACHE
  ? path.resolve(process.env.GEOSHARD_CACHE)
  : IS_ROOT
    ? '/var/cache/geoshard'
    : path.join(os.homedir(), '.cache', 'geoshard');
const DIR = path.join(CACHE_ROOT, `opensearch-${VERSION}`);
const DOWNLOAD_DIR = path.join(DIR, 'download');
const HOME = path.join(DIR, 'home');
const DATA_DIR = path.join(DIR, 'data');
const LOGS_DIR = path.join(DIR, 'logs');
const TMP_DIR = path.join(DIR, 'tmp');
const PID_FILE = path.join(DIR, 'opensearch.pid');
const PORT_FILE = path.join(DIR, 'opensearch.port'); // HTTP port of the running node
const MAIN_LOG = path.join(LOGS_DIR, `${CLUSTER_NAME}.log`);
const CONSOLE_LOG = path.join(LOGS_DIR, 'console.log');
const INSTALLED_MARKER = path.join(HOME, '.geoshard-installed');

const DIST_ARTIFACT = `org.opensearch.distribution.integ-test-zip:opensearch:${VERSION}:zip`;
const DIST_ZIP = path.join(DOWNLOAD_DIR, `opensearch-${VERSION}.zip`);
// Modules the integ-test-zip lacks and geoshard needs. The *-client jar of a module is the
// whole module (no third-party dependencies for parent-join).
const EXTRA_MODULES = [
  {
    name: 'parent-join',
    artifact: `org.opensearch.plugin:parent-join-client:${VERSION}`,
    jar: `parent-join-client-${VERSION}.jar`,
    classname: 'org.opensearch.join.ParentJoinPlugin',
    description: 'This module adds the support parent-child queries and aggregations',
  },
];

// ---------------------------------------------------------------------------------------------
// small helpers

class CliError extends Error {}
const log = (msg) => console.log(`[cluster] ${msg}`);
const fail = (msg) => {
  throw new CliError(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const exists = (p) => fs.existsSync(p);
const secondsSince = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) fail(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0 && !opts.allowFail) {
    const out = `${r.stdout || ''}${r.stderr || ''}`.trim().split('\n').slice(-30).join('\n');
    fail(`${cmd} ${args.join(' ')} exited with ${r.status}${out ? `:\n${out}` : ''}`);
  }
  return r;
}

function tail(file, n = 40) {
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    return lines.slice(-n - 1).join('\n');
  } catch {
    return null;
  }
}

function logHint() {
  const parts = [];
  const main = tail(MAIN_LOG);
  if (main && main.trim()) parts.push(`--- last lines of ${MAIN_LOG} ---\n${main}`);
  // console.log collects the launcher's output of every start: show only the last start.
  const con = tail(CONSOLE_LOG, 200);
  if (con && con.trim()) {
    const lastRun = con.slice(Math.max(0, con.lastIndexOf('\n==== '))).trim().split('\n').slice(-40).join('\n');
    parts.push(`--- launcher output of this start (${CONSOLE_LOG}) ---\n${lastRun}`);
  }
  if (!parts.length) parts.push(`(no log output yet; logs go to ${LOGS_DIR})`);
  return parts.join('\n');
}

/** GET a JSON document; returns { status, body } or null when nothing answers. */
async function getJson(url, timeoutMs = 5000) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body };
  } catch {
    return null;
  }
}

/** Root document if an OpenSearch (or Elasticsearch-like) node answers at url, else null. */
async function probe(url, timeoutMs = 3000) {
  const r = await getJson(`${url}/`, timeoutMs);
  if (!r || r.status !== 200 || typeof r.body !== 'object' || !r.body?.version?.number) return null;
  return r.body;
}

function portOpen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

function describe(root) {
  const v = root.version || {};
  return `${v.distribution || 'elasticsearch'} ${v.number} (cluster "${root.cluster_name}", node "${root.name}")`;
}

// ---------------------------------------------------------------------------------------------
// pid file

function readPid() {
  try {
    const pid = Number(fs.readFileSync(PID_FILE, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  // Guard against a recycled pid: it must still be an OpenSearch JVM.
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('org.opensearch.bootstrap.OpenSearch');
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

function runningPid() {
  const pid = readPid();
  return pid && isAlive(pid) ? pid : null;
}

// ---------------------------------------------------------------------------------------------
// Java

function javaMajor(javaHome) {
  const bin = path.join(javaHome, 'bin', 'java');
  if (!exists(bin)) return null;
  const r = spawnSync(bin, ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  const m = /java\.specification\.version = (\d+)(?:\.(\d+))?/.exec(`${r.stderr}${r.stdout}`);
  if (!m) return null;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

function findJavaHome() {
  const supported = (v) => v !== null && v >= 11 && v <= 23;
  const explicit = process.env.OPENSEARCH_JAVA_HOME;
  if (explicit) {
    const v = javaMajor(explicit);
    if (!supported(v)) {
      fail(
        `OPENSEARCH_JAVA_HOME=${explicit} is ${v === null ? 'not a Java home' : `Java ${v}`}; ` +
          `OpenSearch ${VERSION} needs Java 11..23 (it relies on the Security Manager, gone in 24+).`,
      );
    }
    return { home: explicit, major: v };
  }
  const candidates = [];
  if (process.env.JAVA_HOME) candidates.push(process.env.JAVA_HOME);
  const onPath = which('java');
  if (onPath) candidates.push(path.dirname(path.dirname(fs.realpathSync(onPath))));
  const jvmDir = '/usr/lib/jvm';
  if (exists(jvmDir)) {
    const prefer = (n) => (/-21|21[.-]/.test(n) ? 0 : /-17|17[.-]/.test(n) ? 1 : 2);
    for (const n of fs.readdirSync(jvmDir).sort((a, b) => prefer(a) - prefer(b))) {
      candidates.push(path.join(jvmDir, n));
    }
  }
  const seen = new Set();
  const rejected = [];
  for (const c of candidates) {
    let real;
    try {
      real = fs.realpathSync(c);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const v = javaMajor(real);
    if (supported(v)) return { home: real, major: v };
    if (v !== null) rejected.push(`${real} (Java ${v})`);
  }
  fail(
    `no Java 11..23 found for OpenSearch ${VERSION}` +
      (rejected.length ? ` (found only: ${rejected.join(', ')})` : '') +
      `. Install one (e.g. apt-get install openjdk-17-jdk-headless) or set OPENSEARCH_JAVA_HOME.`,
  );
}

// ---------------------------------------------------------------------------------------------
// install

function mvnCopy(artifact, outDir) {
  const mvn = which('mvn');
  if (!mvn) fail('Maven (mvn) is needed to fetch OpenSearch from Maven Central: apt-get install maven');
  fs.mkdirSync(outDir, { recursive: true });
  // Run from the output folder so that no project pom.xml is picked up.
  run(
    mvn,
    ['-q', '-B', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${outDir}`],
    { cwd: outDir },
  );
}

function unzip(zip, destDir, javaHome) {
  fs.mkdirSync(destDir, { recursive: true });
  const unzipBin = which('unzip');
  if (unzipBin) {
    run(unzipBin, ['-q', '-o', zip, '-d', destDir]);
    return 'unzip';
  }
  const py = which('python3');
  if (py) {
    run(py, ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', zip, destDir]);
    return 'python3 zipfile';
  }
  const jar = [path.join(javaHome, 'bin', 'jar'), which('jar')].find((p) => p && exists(p));
  if (jar) {
    run(jar, ['xf', zip], { cwd: destDir });
    return 'jar xf';
  }
  fail('no unzip tool found (tried unzip, python3, jar): apt-get install unzip');
}

function writeDescriptor(dir, m) {
  const props = [
    '# Written by geoshard scripts/cluster.mjs (fields as read by org.opensearch.plugins.PluginInfo)',
    `description=${m.description}`,
    `version=${VERSION}`,
    `name=${m.name}`,
    `classname=${m.classname}`,
    'java.version=11',
    `opensearch.version=${VERSION}`,
    'custom.foldername=',
    'extended.plugins=',
    'has.native.controller=false',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'plugin-descriptor.properties'), props);
}

function install(javaHome) {
  fs.mkdirSync(DIR, { recursive: true });

  if (!exists(DIST_ZIP)) {
    const t0 = Date.now();
    log(`downloading OpenSearch ${VERSION} (${DIST_ARTIFACT}, ~55 MB) from Maven Central with mvn...`);
    mvnCopy(DIST_ARTIFACT, DOWNLOAD_DIR);
    if (!exists(DIST_ZIP)) fail(`Maven finished but ${DIST_ZIP} is missing`);
    log(`downloaded in ${secondsSince(t0)} s -> ${DIST_ZIP}`);
  }

  if (!exists(INSTALLED_MARKER)) {
    const t0 = Date.now();
    const staging = path.join(DIR, `unpack.tmp-${process.pid}`);
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(HOME, { recursive: true, force: true });
    log(`unpacking ${path.basename(DIST_ZIP)}...`);
    const tool = unzip(DIST_ZIP, staging, javaHome);
    const inner = path.join(staging, `opensearch-${VERSION}`);
    if (!exists(path.join(inner, 'bin', 'opensearch'))) fail(`unexpected zip layout: no ${inner}/bin/opensearch`);
    fs.renameSync(inner, HOME);
    fs.rmSync(staging, { recursive: true, force: true });
    for (const f of fs.readdirSync(path.join(HOME, 'bin'))) fs.chmodSync(path.join(HOME, 'bin', f), 0o755);
    log(`unpacked with ${tool} in ${secondsSince(t0)} s -> ${HOME}`);
  }

  for (const m of EXTRA_MODULES) {
    const modDir = path.join(HOME, 'modules', m.name);
    if (exists(path.join(modDir, 'plugin-descriptor.properties'))) continue;
    const src = path.join(DOWNLOAD_DIR, m.jar);
    if (!exists(src)) {
      log(`downloading module ${m.name} (${m.artifact}) with mvn...`);
      mvnCopy(m.artifact, DOWNLOAD_DIR);
      if (!exists(src)) fail(`Maven finished but ${src} is missing`);
    }
    log(`adding module ${m.name} -> ${modDir}`);
    fs.mkdirSync(modDir, { recursive: true });
    fs.copyFileSync(src, path.join(modDir, m.jar));
    writeDescriptor(modDir, m);
  }

  if (!exists(INSTALLED_MARKER)) fs.writeFileSync(INSTALLED_MARKER, `${new Date().toISOString()}\n`);
}

function writeConfig() {
  const yml = [
    '# Written by geoshard scripts/cluster.mjs on every start; edits are overwritten.',
    `cluster.name: ${CLUSTER_NAME}`,
    'node.name: geoshard-node-1',
    'discovery.type: single-node',
    'network.host: 127.0.0.1',
    `path.data: ${DATA_DIR}`,
    `path.logs: ${LOGS_DIR}`,
    'cluster.routing.allocation.disk.threshold_enabled: false',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(HOME, 'config', 'opensearch.yml'), yml);
}

function ensureRunUser() {
  const r = spawnSync('id', ['-u', RUN_USER], { encoding: 'utf8' });
  if (r.status === 0) return;
  log(`OpenSearch refuses to run as root: creating system user "${RUN_USER}"...`);
  const useradd = which('useradd') || '/usr/sbin/useradd';
  run(useradd, [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    RUN_USER,
  ]);
}

// ---------------------------------------------------------------------------------------------
// commands

async function waitForYellow(pid, t0) {
  const deadline = t0 + START_TIMEOUT_S * 1000;
  let lastNote = 0;
  while (Date.now() < deadline) {
    const r = await getJson(`${LOCAL_URL}/_cluster/health?wait_for_status=yellow&timeout=5s`, 10000);
    if (r && r.status === 200 && (r.body.status === 'yellow' || r.body.status === 'green')) return r.body;
    if (pid && !isAlive(pid) && !runningPid()) {
      fail(`the OpenSearch process exited during startup.\n${logHint()}\nFix the cause above and run start again.`);
    }
    if (Date.now() - lastNote > 10000) {
      log(`waiting for ${LOCAL_URL} to become yellow... (${secondsSince(t0)} s)`);
      lastNote = Date.now();
    }
    await sleep(1000);
  }
  fail(
    `OpenSearch did not become yellow on ${LOCAL_URL} within ${START_TIMEOUT_S} s ` +
      `(log: ${MAIN_LOG}).\n${logHint()}\n` +
      `Look at the log, run "node scripts/cluster.mjs stop", then start again ` +
      `(OPENSEARCH_START_TIMEOUT raises the limit).`,
  );
}

async function start() {
  if (!/^\d+[kmg]$/i.test(HEAP)) fail(`OPENSEARCH_HEAP=${HEAP} is not a JVM size such as 1g or 512m.`);
  if (EXTERNAL_URL) {
    log(`OPENSEARCH_URL is set: using the external cluster ${EXTERNAL_URL}, nothing is started.`);
    const root = await probe(EXTERNAL_URL, 10000);
    if (!root) fail(`nothing answers at OPENSEARCH_URL=${EXTERNAL_URL}. Start that cluster or unset OPENSEARCH_URL.`);
    const h = await getJson(`${EXTERNAL_URL}/_cluster/health`);
    log(`up: ${describe(root)}, health ${h?.body?.status ?? 'unknown'}`);
    return 0;
  }

  const already = await probe(LOCAL_URL);
  if (already) {
    log(`a node already answers on ${LOCAL_URL}: ${describe(already)}. Nothing to do.`);
    return 0;
  }
  const t0 = Date.now();
  let pid = runningPid();
  if (pid) {
    let runningPort = null;
    try {
      runningPort = Number(fs.readFileSync(PORT_FILE, 'utf8').trim()) || null;
    } catch {
      /* started by an older version of this script */
    }
    if (runningPort && runningPort !== PORT) {
      fail(
        `the node of ${DIR} is already running (pid ${pid}) on port ${runningPort}, not ${PORT}. ` +
          `Stop it first ("node scripts/cluster.mjs stop") or use OPENSEARCH_PORT=${runningPort}.`,
      );
    }
    log(`node pid ${pid} (from ${PID_FILE}) is running but not answering yet; waiting for it...`);
  } else {
    if (await portOpen(PORT)) {
      fail(`port ${PORT} on 127.0.0.1 is in use by something that is not OpenSearch. Free it or set OPENSEARCH_PORT.`);
    }
    const java = findJavaHome();
    log(`OpenSearch ${VERSION}, cache ${DIR}, Java ${java.major} at ${java.home}`);
    install(java.home);
    writeConfig();
    for (const d of [DATA_DIR, LOGS_DIR, TMP_DIR]) fs.mkdirSync(d, { recursive: true });
    fs.rmSync(PID_FILE, { force: true });
    fs.writeFileSync(PORT_FILE, `${PORT}\n`);

    const env = {
      PATH: process.env.PATH || '/usr/local/bin:/usr/bin:/bin',
      LANG: 'C.UTF-8',
      OPENSEARCH_JAVA_HOME: java.home,
      JAVA_HOME: java.home,
      OPENSEARCH_PATH_CONF: path.join(HOME, 'config'),
      OPENSEARCH_TMPDIR: TMP_DIR,
      OPENSEARCH_JAVA_OPTS: `-Xms${HEAP} -Xmx${HEAP}`,
    };
    const osArgs = [path.join(HOME, 'bin', 'opensearch'), '-d', '-p', PID_FILE, '-E', `http.port=${PORT}`];
    let cmd;
    let args;
    if (IS_ROOT) {
      ensureRunUser();
      for (const p of [CACHE_ROOT, DIR]) fs.chmodSync(p, 0o755);
      run('chown', ['-R', `${RUN_USER}:${RUN_USER}`, DIR]);
      const probeAccess = spawnSync('runuser', ['-u', RUN_USER, '--', 'test', '-w', DATA_DIR]);
      if (probeAccess.status !== 0) {
        fail(
          `user "${RUN_USER}" cannot write ${DATA_DIR} (a parent folder is probably closed to other users). ` +
            `Set GEOSHARD_CACHE to a folder outside /root, e.g. /var/cache/geoshard.`,
        );
      }
      cmd = 'runuser';
      args = ['-u', RUN_USER, '--', '/usr/bin/env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...osArgs];
      log(`starting OpenSearch as user "${RUN_USER}" on ${LOCAL_URL} (heap ${HEAP})...`);
    } else {
      cmd = osArgs[0];
      args = osArgs.slice(1);
      log(`starting OpenSearch on ${LOCAL_URL} (heap ${HEAP})...`);
    }
    const out = fs.openSync(CONSOLE_LOG, 'a');
    fs.writeSync(out, `\n==== ${new Date().toISOString()} start: ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, {
      cwd: HOME, // bin/opensearch calls bin/opensearch-keystore by a relative path
      env: IS_ROOT ? { PATH: env.PATH } : { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    const launcherExit = new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', (e) => resolve(e.message));
    });
    child.unref();
    // The launcher forks the JVM (-d) and exits; the JVM writes the pid file once it runs.
    const launchDeadline = Date.now() + 60000;
    let code = 'running';
    launcherExit.then((c) => {
      code = c;
    });
    while (!(pid = readPid()) && Date.now() < launchDeadline) {
      if (code !== 'running' && code !== 0) break;
      await sleep(250);
    }
    if (!pid) {
      fail(`OpenSearch did not start (launcher exit: ${code}).\n${logHint()}\nFix the cause above and run start again.`);
    }
    log(`node process pid ${pid} (pid file ${PID_FILE}), log ${MAIN_LOG}`);
  }
  const health = await waitForYellow(pid, t0);
  const root = await probe(LOCAL_URL);
  log(
    `up in ${secondsSince(t0)} s: ${root ? describe(root) : LOCAL_URL}, health ${health.status}. ` +
      `Stop it with "node scripts/cluster.mjs stop".`,
  );
  return 0;
}

async function stop() {
  const pid = readPid();
  if (!pid || !isAlive(pid)) {
    if (pid) fs.rmSync(PID_FILE, { force: true });
    const other = await probe(LOCAL_URL);
    log(
      `no node started by this script is running (${PID_FILE}).` +
        (other ? ` Note: ${describe(other)} still answers on ${LOCAL_URL}; it was not started here.` : ''),
    );
    return 0;
  }
  log(`stopping OpenSearch pid ${pid} (SIGTERM)...`);
  const t0 = Date.now();
  process.kill(pid, 'SIGTERM');
  while (isAlive(pid) && Date.now() - t0 < STOP_TIMEOUT_S * 1000) await sleep(250);
  if (isAlive(pid)) {
    log(`still running after ${STOP_TIMEOUT_S} s: SIGKILL`);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid) && Date.now() - t0 < (STOP_TIMEOUT_S + 10) * 1000) await sleep(250);
    if (isAlive(pid)) fail(`could not kill pid ${pid}; kill it by hand (kill -9 ${pid}).`);
  }
  fs.rmSync(PID_FILE, { force: true });
  fs.rmSync(PORT_FILE, { force: true });
  log(`stopped in ${secondsSince(t0)} s.`);
  return 0;
}

async function status() {
  const root = await probe(URL_);
  const pid = runningPid();
  if (!root) {
    log(
      `down: nothing answers on ${URL_}` +
        (pid ? ` (but node pid ${pid} is running: still starting? see ${MAIN_LOG})` : '') +
        (EXTERNAL_URL ? '' : '. Start it with "node scripts/cluster.mjs start".'),
    );
    return 1;
  }
  const h = await getJson(`${URL_}/_cluster/health`);
  const hb = h?.body || {};
  log(`up: ${URL_} -> ${describe(root)}`);
  log(
    `health ${hb.status ?? 'unknown'}, nodes ${hb.number_of_nodes ?? '?'}, ` +
      `active shards ${hb.active_shards ?? '?'}, unassigned ${hb.unassigned_shards ?? '?'}`,
  );
  if (!EXTERNAL_URL) {
    log(pid ? `started by this script: pid ${pid}, cache ${DIR}, log ${MAIN_LOG}` : 'not started by this script (no live pid file).');
  }
  return 0;
}

const commands = { start, stop, status };
const name = process.argv[2];
if (!commands[name]) {
  console.error('usage: node scripts/cluster.mjs start|stop|status');
  process.exit(2);
}
try {
  process.exitCode = await commands[name]();
} catch (e) {
  console.error(`[cluster] ERROR: ${e instanceof CliError ? e.message : e.stack || e}`);
  process.exitCode = 1;
}
