// One node: its config, its start and its stop. Part of scripts/cluster.mjs (its header says what it does).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { SECURE, STOP_TIMEOUT_S, RUN_USER, CLUSTER_NAME, IS_ROOT, CACHE_ROOT, DIR, HOME, PORT_FILE, nodePaths, nodeName, readSecureState } from './settings.mjs';
import { makeCerts, ensureSecureState, writeSecurityConfig } from './secure.mjs';
import { log, fail, sleep, exists, secondsSince, run, logHint, readPid, isAlive } from './util.mjs';
import { install, ensureRunUser, syncGeoshardPlugin } from './install.mjs';

function writeNodeConfig(state, node) {
  const p = nodePaths(node.n);
  // The first start copies home/config (jvm.options, log4j2.properties); opensearch.yml is ours.
  if (!exists(path.join(p.conf, 'jvm.options'))) {
    fs.mkdirSync(p.conf, { recursive: true });
    for (const f of fs.readdirSync(path.join(HOME, 'config'))) {
      if (f === 'opensearch.yml' || f === 'opensearch.keystore') continue;
      fs.cpSync(path.join(HOME, 'config', f), path.join(p.conf, f), { recursive: true });
    }
  }
  const multi = state.nodes.length > 1;
  const lines = [
    '# Written by geoshard scripts/cluster.mjs on every start; edits are overwritten.',
    `cluster.name: ${CLUSTER_NAME}`,
    `node.name: ${node.name}`,
    'network.host: 127.0.0.1',
    `http.port: ${node.http}`,
    `transport.port: ${node.transport}`,
    `path.data: ${p.data}`,
    `path.logs: ${p.logs}`,
    'cluster.routing.allocation.disk.threshold_enabled: false',
  ];
  if (multi) {
    lines.push(
      `discovery.seed_hosts: [${state.nodes.map((x) => `"127.0.0.1:${x.transport}"`).join(', ')}]`,
      `cluster.initial_cluster_manager_nodes: [${state.nodes.map((x) => `"${x.name}"`).join(', ')}]`,
    );
  } else {
    lines.push('discovery.type: single-node');
  }
  if (SECURE) lines.push(...writeSecurityConfig(p.conf, readSecureState()));
  fs.writeFileSync(path.join(p.conf, 'opensearch.yml'), `${lines.join('\n')}\n`);
}

/** Seconds a start of n nodes may take (OPENSEARCH_START_TIMEOUT, default 180 + 60 per extra node). */
const startTimeoutS = (n) => Number(process.env.OPENSEARCH_START_TIMEOUT || 180 + 60 * (n - 1));

/** Spawns node k (daemonised) and returns its pid once the JVM wrote its pid file. */
async function launchNode(state, node, java) {
  const p = nodePaths(node.n);
  writeNodeConfig(state, node);
  for (const d of [p.data, p.logs, p.tmp]) fs.mkdirSync(d, { recursive: true });
  fs.rmSync(p.pid, { force: true });
  if (node.n === 1) fs.writeFileSync(PORT_FILE, `${node.http}\n`);
  chownNode(node.n);
  const jvmOpts = [
    `-Xms${state.heap}`,
    `-Xmx${state.heap}`,
    // jvm.options writes the GC log and crash files relative to home/: give each node its own.
    '-Xlog:disable',
    '-Xlog:all=warning:stderr:uptime,level,tags',
    `-Xlog:gc*,gc+age=trace,safepoint:file=${p.logs}/gc.log:utctime,pid,tags:filecount=4,filesize=16m`,
    `-XX:ErrorFile=${p.logs}/hs_err_pid%p.log`,
    `-XX:HeapDumpPath=${p.data}`,
  ];
  const env = {
    PATH: process.env.PATH || '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    OPENSEARCH_JAVA_HOME: java.home,
    JAVA_HOME: java.home,
    OPENSEARCH_PATH_CONF: p.conf,
    OPENSEARCH_TMPDIR: p.tmp,
    OPENSEARCH_JAVA_OPTS: jvmOpts.join(' '),
  };
  const osArgs = [path.join(HOME, 'bin', 'opensearch'), '-d', '-p', p.pid];
  let cmd;
  let args;
  if (IS_ROOT) {
    cmd = 'runuser';
    args = ['-u', RUN_USER, '--', '/usr/bin/env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...osArgs];
  } else {
    cmd = osArgs[0];
    args = osArgs.slice(1);
  }
  log(`starting node ${node.n} (${node.name}): HTTP ${node.http}, transport ${node.transport}, heap ${state.heap}, log ${p.mainLog}`);
  const out = fs.openSync(p.consoleLog, 'a');
  fs.writeSync(out, `\n==== ${new Date().toISOString()} start: ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, {
    cwd: HOME, // bin/opensearch calls bin/opensearch-keystore by a relative path
    env: IS_ROOT ? { PATH: env.PATH } : { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  let code = 'running';
  child.once('exit', (c) => (code = c));
  child.once('error', (e) => (code = e.message));
  child.unref();
  // The launcher forks the JVM (-d) and exits; the JVM writes the pid file once it runs, which
  // on a busy machine can take minutes: wait as long as for the whole start.
  const launchDeadline = Date.now() + startTimeoutS(state.nodes.length) * 1000;
  let pid = null;
  while (!(pid = readPid(node.n)) && Date.now() < launchDeadline) {
    if (code !== 'running' && code !== 0) break;
    await sleep(250);
  }
  if (!pid) fail(`node ${node.n} did not start (launcher exit: ${code}).\n${logHint(node.n)}\nFix the cause above and run start again.`);
  return pid;
}

/**
 * Prepares the shared folders (install, run user, ownership) before any node starts; installs or
 * removes the geoshard plugin as --plugin says unless `syncPlugin` is false (one node restarted
 * beside running peers keeps what they run).
 */
function prepare(java, { syncPlugin = true } = {}) {
  install(java.home);
  if (syncPlugin) syncGeoshardPlugin(java.home);
  if (SECURE) {
    makeCerts();
    ensureSecureState(java.home);
  }
  if (IS_ROOT) {
    ensureRunUser();
    for (const p of [CACHE_ROOT, DIR]) fs.chmodSync(p, 0o755);
    run('chown', ['-R', `${RUN_USER}:${RUN_USER}`, DIR]);
  }
}

function chownNode(k) {
  if (!IS_ROOT) return;
  const p = nodePaths(k);
  run('chown', ['-R', `${RUN_USER}:${RUN_USER}`, p.data, p.logs, p.tmp, path.dirname(p.conf)]);
  if (k === 1) run('chown', [`${RUN_USER}:${RUN_USER}`, PORT_FILE]);
  const probeAccess = spawnSync('runuser', ['-u', RUN_USER, '--', 'test', '-w', p.data]);
  if (probeAccess.status !== 0) {
    fail(
      `user "${RUN_USER}" cannot write ${p.data} (a parent folder is probably closed to other users). ` +
        `Set GEOSHARD_CACHE to a folder outside /root, e.g. /var/cache/geoshard.`,
    );
  }
}

/** Stops node k: SIGTERM, SIGKILL after STOP_TIMEOUT_S. Returns false if it was not running. */
async function stopNode(k) {
  const p = nodePaths(k);
  const pid = readPid(k);
  if (!pid || !isAlive(pid)) {
    if (pid) fs.rmSync(p.pid, { force: true });
    return false;
  }
  log(`stopping node ${k} (${nodeName(k)}), pid ${pid} (SIGTERM)...`);
  const t0 = Date.now();
  process.kill(pid, 'SIGTERM');
  while (isAlive(pid) && Date.now() - t0 < STOP_TIMEOUT_S * 1000) await sleep(250);
  if (isAlive(pid)) {
    log(`node ${k} still running after ${STOP_TIMEOUT_S} s: SIGKILL`);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid) && Date.now() - t0 < (STOP_TIMEOUT_S + 10) * 1000) await sleep(250);
    if (isAlive(pid)) fail(`could not kill pid ${pid}; kill it by hand (kill -9 ${pid}).`);
  }
  fs.rmSync(p.pid, { force: true });
  if (k === 1) fs.rmSync(PORT_FILE, { force: true });
  log(`node ${k} stopped in ${secondsSince(t0)} s.`);
  return true;
}


export { writeNodeConfig, startTimeoutS, launchNode, prepare, chownNode, stopNode };
