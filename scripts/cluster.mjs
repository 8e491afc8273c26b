#!/usr/bin/env node
// Local OpenSearch cluster (1 node by default, or several on loopback) for geoshard development and tests.
//
//   node scripts/cluster.mjs start [--nodes N]   fetch (first time), install and start N nodes (default: the
//                                                 cluster's recorded node count, else 1), wait for yellow
//   node scripts/cluster.mjs start --node K      start node K of the recorded cluster again (same data dir: it rejoins)
//   node scripts/cluster.mjs stop [--node K]     stop every node (or node K) this script started: SIGTERM, then
//                                                 SIGKILL after 30 s (exit 0 if none runs)
//   node scripts/cluster.mjs status              list the nodes (name, ports, pid, up/down, role) and the health;
//                                                 exit 0 if node 1 (or OPENSEARCH_URL) answers, 1 if not
//   start --reset                                 delete the nodes' data first (needed to change the node count)
//   node scripts/cluster.mjs env                  print `export OPENSEARCH_URL=...` (and, --secure, OPENSEARCH_CA and
//                                                 GEOSHARD_SECURE_STATE) for eval in a shell or a test script
//   --secure (or OPENSEARCH_SECURITY=1)           a secured cluster (docs/security.md): OpenSearch 2.19.4 and the official
//                                                 security plugin from Maven Central, TLS on HTTP and transport with a CA
//                                                 and node certificate made with openssl at the first start (certs/), the
//                                                 security index initialised from our internal_users.yml (the admin:
//                                                 OPENSEARCH_ADMIN_PASSWORD, else generated) and roles_mapping.yml, then on
//                                                 every start the roles of src/cluster/roles.json, one user per role and one
//                                                 for readall_and_monitor (generated passwords) set through the plugin's
//                                                 REST API; credentials in secure.json (0600). Its own folder
//                                                 opensearch-<version>-secure; give --secure to stop/status/env as well.
//                                                 GEOSHARD_SECURE_INDEXES: the roles' index patterns (default "*").
//   start --plugin (or GEOSHARD_PLUGIN=1)          install this repository's OpenSearch plugin (plugin/, docs/plugin.md) built
//                                                 for the node's version (node scripts/plugin.mjs build, run when its zip is
//                                                 missing) into home/plugins with opensearch-plugin install --batch; a start
//                                                 without it removes the plugin again, so the flag says what runs. `start
//                                                 --node K` leaves the plugin as the running nodes have it.
//
// Node built-ins only. The official OpenSearch distribution (integ-test-zip, no bundled JDK)
// and, for 2.x, the parent-join, lang-painless, ingest-common, reindex and geo modules are fetched from Maven Central with `mvn` into a cache
// folder outside git. OpenSearch 2.x runs on the machine's Java 11..23 (it needs the Security
// Manager, which Java 24+ no longer has; Java 21, then 17, preferred); 3.x on Java 21+ (the
// newest found preferred, e.g. Temurin 25 under /usr/lib/jvm). 3.x zips bundle these modules.
//
// Ports: node 1 answers HTTP on OPENSEARCH_PORT (default 9200), as a single node always did.
// The other nodes' HTTP ports are the first free ports above it; the transport ports the first
// free ports from OPENSEARCH_PORT+100 up, never in 9200..9299 (other clusters' HTTP range, where
// a transport port once made a node fail with BindHttpException). Ports are recorded in
// cluster.json and reused on restart when still free.
//
// Environment:
//   OPENSEARCH_URL           external cluster: `start`/`status` only check it, nothing is started
//   OPENSEARCH_PORT          HTTP port of node 1 (default 9200)
//   OPENSEARCH_VERSION       OpenSearch version to fetch (default 2.19.6; 3.8.0 works too)
//   OPENSEARCH_HEAP          JVM heap per node, e.g. 1g or 512m (default 1g for 1 node, 512m each for more)
//   OPENSEARCH_START_TIMEOUT seconds to wait for the cluster to become yellow (default 180 + 60 per extra node)
//   OPENSEARCH_JAVA_HOME     Java home to run the nodes with (default: found automatically)
//   GEOSHARD_CACHE           cache root (default ~/.cache/geoshard; as root /var/cache/geoshard,
//                            because the nodes run as a system user that cannot enter /root)
//
// Layout of <cache root>/opensearch-<version>/:
//   download/   the zip and module jars as fetched by Maven
//   home/       the unpacked distribution (OPENSEARCH_HOME), the extra modules added to modules/ (2.x)
//   cluster.json       the cluster: version, heap, node count, each node's name and ports
//   data/ logs/ tmp/ opensearch.pid   node 1 (logs/geoshard.log, logs/console.log, logs/gc.log)
//   node-K/{data,logs,tmp,opensearch.pid}   node K >= 2
//   node-K/config/     each node's config (copied from home/config, opensearch.yml written on every start)

import fs from 'node:fs';
import { SECURE, VERSION, MAJOR, PORT, EXTERNAL_URL, SCHEME, LOCAL_URL, URL_, MAX_NODES, DIR, nodePaths, CERTS, CA_FILE, SECURE_STATE, readSecureState } from './cluster/settings.mjs';
import { applyRolesTable } from './cluster/secure.mjs';
import { CliError, log, fail, sleep, exists, secondsSince, run, logHint, getJson, probe, portOpen, describe, readPid, isAlive, runningPid } from './cluster/util.mjs';
import { findJavaHome } from './cluster/java.mjs';
import { parseArgs, readState, writeState, portFree, choosePorts } from './cluster/state.mjs';
import { startTimeoutS, launchNode, prepare, stopNode } from './cluster/node.mjs';

// ---------------------------------------------------------------------------------------------
// commands

/** Waits until `url` reports a cluster with at least `nodes` nodes and status yellow or green. */
async function waitForCluster(url, nodes, pids, t0, timeoutS) {
  const deadline = t0 + timeoutS * 1000;
  let lastNote = 0;
  while (Date.now() < deadline) {
    const r = await getJson(`${url}/_cluster/health?wait_for_status=yellow&wait_for_nodes=>=${nodes}&timeout=5s`, 10000);
    if (r && r.status === 200 && !r.body.timed_out && (r.body.status === 'yellow' || r.body.status === 'green')) return r.body;
    for (const [k, pid] of pids) {
      if (!isAlive(pid) && !runningPid(k)) {
        fail(`node ${k} exited during startup.\n${logHint(k)}\nFix the cause above and run start again.`);
      }
    }
    if (Date.now() - lastNote > 10000) {
      log(`waiting for ${url} to report ${nodes} node(s), yellow... (${secondsSince(t0)} s)`);
      lastNote = Date.now();
    }
    await sleep(1000);
  }
  fail(
    `the cluster did not report ${nodes} node(s), yellow, on ${url} within ${timeoutS} s.\n` +
      [...pids.keys()].map((k) => logHint(k)).join('\n') +
      `\nLook at the logs, run "node scripts/cluster.mjs stop", then start again (OPENSEARCH_START_TIMEOUT raises the limit).`,
  );
}

async function start(opts) {
  if (EXTERNAL_URL) {
    log(`OPENSEARCH_URL is set: using the external cluster ${EXTERNAL_URL}, nothing is started.`);
    const root = await probe(EXTERNAL_URL, 10000);
    if (!root) fail(`nothing answers at OPENSEARCH_URL=${EXTERNAL_URL}. Start that cluster or unset OPENSEARCH_URL.`);
    const h = await getJson(`${EXTERNAL_URL}/_cluster/health`);
    log(`up: ${describe(root)}, health ${h?.body?.status ?? 'unknown'}, nodes ${h?.body?.number_of_nodes ?? '?'}`);
    return 0;
  }
  if (!Number.isInteger(MAJOR) || MAJOR < 1) fail(`OPENSEARCH_VERSION=${VERSION} is not a version such as 2.19.6 or 3.8.0`);
  const recorded = readState();
  if (opts.node !== null) return startOne(opts.node, recorded);

  const rec1 = recorded?.nodes.find((x) => x.n === 1);
  if (runningPid(1) && rec1 && rec1.http !== PORT) {
    fail(
      `the cluster of ${DIR} is already running (node 1 pid ${runningPid(1)}) on port ${rec1.http}, not ${PORT}. ` +
        `Stop it first ("node scripts/cluster.mjs stop") or use OPENSEARCH_PORT=${rec1.http}.`,
    );
  }
  const n = opts.nodes ?? recorded?.nodes.length ?? 1;
  const heap = process.env.OPENSEARCH_HEAP || (n > 1 ? '512m' : '1g');
  if (!/^\d+[kmg]$/i.test(heap)) fail(`OPENSEARCH_HEAP=${heap} is not a JVM size such as 1g or 512m.`);
  const anyUp = [...Array(MAX_NODES).keys()].map((i) => i + 1).filter((k) => runningPid(k));

  if (!anyUp.length && !runningPid(1)) {
    const foreign = await probe(LOCAL_URL);
    if (foreign) {
      if (n === 1) {
        log(`a node already answers on ${LOCAL_URL}: ${describe(foreign)}. Nothing to do.`);
        return 0;
      }
      fail(`${LOCAL_URL} is held by ${describe(foreign)}, not started from ${DIR}. Stop it or set OPENSEARCH_PORT to a free port.`);
    }
    if (await portOpen(PORT)) fail(`port ${PORT} on 127.0.0.1 is in use by something that is not OpenSearch. Free it or set OPENSEARCH_PORT.`);
  }

  if (recorded && recorded.nodes.length !== n) {
    if (anyUp.length) {
      fail(`the cluster of ${DIR} runs with ${recorded.nodes.length} node(s); stop it first ("node scripts/cluster.mjs stop"), then start it with --nodes ${n} --reset.`);
    }
    const hasData = [...Array(MAX_NODES).keys()].some((i) => {
      const d = nodePaths(i + 1).data;
      return exists(d) && fs.readdirSync(d).length > 0;
    });
    if (hasData && !opts.reset) {
      fail(
        `the cluster of ${DIR} was made with ${recorded.nodes.length} node(s) and its data is kept: start it with --nodes ${recorded.nodes.length}, ` +
          `or add --reset to delete its data (indexes included) and start ${n} node(s).`,
      );
    }
  }
  if (opts.reset) {
    if (anyUp.length) fail(`--reset deletes the nodes' data: stop the cluster first ("node scripts/cluster.mjs stop").`);
    for (let k = 1; k <= MAX_NODES; k++) fs.rmSync(nodePaths(k).data, { recursive: true, force: true });
    // A new security index takes the passwords and certificates anew.
    if (SECURE) for (const f of [SECURE_STATE, CERTS]) fs.rmSync(f, { recursive: true, force: true });
    log(`--reset: deleted the data of every node of ${DIR}`);
  }

  const t0 = Date.now();
  const java = findJavaHome();
  log(`OpenSearch ${VERSION}, ${n} node(s), cache ${DIR}, Java ${java.major} at ${java.home}`);
  prepare(java);
  const nodes = await choosePorts(n, recorded && recorded.nodes.length === n ? recorded : null);
  const state = { version: VERSION, heap, java: java.home, nodes };
  writeState(state);
  // The start timeout counts from here: a first start's downloads and installs (minutes, for the
  // secured node's plugin too) are not the cluster's start.
  const tLaunch = Date.now();
  const pids = new Map();
  for (const node of nodes) {
    const pid = runningPid(node.n);
    if (pid) {
      log(`node ${node.n} already runs (pid ${pid})`);
      pids.set(node.n, pid);
      continue;
    }
    pids.set(node.n, await launchNode(state, node, java));
  }
  const timeoutS = startTimeoutS(n);
  const health = await waitForCluster(LOCAL_URL, n, pids, tLaunch, timeoutS);
  if (SECURE) await applyRolesTable(readSecureState());
  const root = await probe(LOCAL_URL);
  log(
    `up in ${secondsSince(t0)} s: ${root ? describe(root) : LOCAL_URL}, ${health.number_of_nodes} node(s), health ${health.status}. ` +
      `Ports (HTTP/transport): ${nodes.map((x) => `node ${x.n} ${x.http}/${x.transport}`).join(', ')}. Stop with "node scripts/cluster.mjs stop".`,
  );
  if (SECURE) {
    log(`secured: TLS with the CA ${CA_FILE} (OPENSEARCH_CA), users and passwords in ${SECURE_STATE}; stop with "OPENSEARCH_SECURITY=1 node scripts/cluster.mjs stop".`);
  }
  return 0;
}

async function startOne(k, state) {
  if (!state || !state.nodes.find((x) => x.n === k)) {
    fail(`node ${k} is not part of the cluster of ${DIR} (${state ? `it has nodes 1..${state.nodes.length}` : 'none was started'}); start the cluster with --nodes N first.`);
  }
  const node = state.nodes.find((x) => x.n === k);
  const pid0 = runningPid(k);
  if (pid0) {
    log(`node ${k} already runs (pid ${pid0}). Nothing to do.`);
    return 0;
  }
  if (!node.transport) fail(`node ${k} was started by an older version of this script: stop it and start the cluster again.`);
  for (const port of [node.http, node.transport]) {
    if (!(await portFree(port))) fail(`port ${port} of node ${k} is in use by another process; stop the whole cluster and start it again (new ports are chosen then).`);
  }
  const t0 = Date.now();
  const java = findJavaHome();
  // The node rejoins peers that run with the plugins of the shared home as they are: the geoshard
  // plugin is neither installed nor removed here (a restart without --plugin once removed it from
  // every node's home, and the node came back without it).
  prepare(java, { syncPlugin: false });
  const pid = await launchNode(state, node, java);
  const url = `${SCHEME}://127.0.0.1:${node.http}`;
  const timeoutS = startTimeoutS(1);
  // A node answers _cluster/health only once it has joined a cluster with an elected cluster manager.
  const health = await waitForCluster(url, 1, new Map([[k, pid]]), t0, timeoutS);
  log(`node ${k} up and joined in ${secondsSince(t0)} s (pid ${pid}): cluster has ${health.number_of_nodes} node(s), health ${health.status}.`);
  return 0;
}

async function stop(opts) {
  const state = readState();
  if (opts.node !== null) {
    if (!(await stopNode(opts.node))) log(`node ${opts.node} of ${DIR} is not running. Nothing to do.`);
    return 0;
  }
  const ks = [...Array(MAX_NODES).keys()].map((i) => i + 1).filter((k) => readPid(k));
  const stopped = await Promise.all(ks.map((k) => stopNode(k)));
  if (!stopped.some(Boolean)) {
    const other = await probe(LOCAL_URL);
    log(
      `no node started by this script is running (${DIR}).` +
        (other ? ` Note: ${describe(other)} still answers on ${LOCAL_URL}; it was not started here.` : ''),
    );
  } else {
    log(`stopped ${stopped.filter(Boolean).length} node(s) of ${state ? `the ${state.nodes.length}-node cluster` : 'the cluster'} in ${DIR}.`);
  }
  return 0;
}

async function status() {
  const root = await probe(URL_);
  const state = EXTERNAL_URL ? null : readState();
  // Any node that answers can list the cluster's nodes.
  let catUrl = root ? URL_ : null;
  if (!catUrl && state) {
    for (const x of state.nodes) {
      if (await probe(`${SCHEME}://127.0.0.1:${x.http}`)) {
        catUrl = `${SCHEME}://127.0.0.1:${x.http}`;
        break;
      }
    }
  }
  const cat = catUrl ? await getJson(`${catUrl}/_cat/nodes?format=json&h=name,ip,port,http_address,node.role,cluster_manager,master,heap.max`) : null;
  const catNodes = Array.isArray(cat?.body) ? cat.body : [];
  if (root) {
    const h = await getJson(`${URL_}/_cluster/health`);
    const hb = h?.body || {};
    log(`up: ${URL_} -> ${describe(root)}`);
    log(`health ${hb.status ?? 'unknown'}, nodes ${hb.number_of_nodes ?? '?'}, active shards ${hb.active_shards ?? '?'}, unassigned ${hb.unassigned_shards ?? '?'}`);
  } else {
    const pid = runningPid(1);
    log(
      `down: nothing answers on ${URL_}` +
        (pid ? ` (but node 1 pid ${pid} is running: still starting? see ${nodePaths(1).mainLog})` : '') +
        (EXTERNAL_URL ? '' : '. Start it with "node scripts/cluster.mjs start".'),
    );
  }
  const roleOf = (c) => (c ? `${c['node.role']}${(c.cluster_manager ?? c.master) === '*' ? ' (elected cluster manager)' : ''}` : '-');
  if (state) {
    log(`nodes of ${DIR} (OpenSearch ${state.version}, heap ${state.heap} each):`);
    for (const x of state.nodes) {
      const pid = runningPid(x.n);
      const c = catNodes.find((y) => y.name === x.name);
      const up = pid && (await probe(`${SCHEME}://127.0.0.1:${x.http}`, 2000)) ? 'up' : pid ? 'running, not answering' : 'down';
      log(
        `  node ${x.n}  ${x.name}  http ${x.http}  transport ${x.transport ?? '?'}  pid ${pid ?? '-'}  ${up}  ` +
          `${c ? `in cluster, role ${roleOf(c)}` : 'not in cluster'}  log ${nodePaths(x.n).mainLog}`,
      );
    }
  } else if (catNodes.length) {
    log('nodes:');
    for (const c of catNodes) log(`  ${c.name}  http ${c.http_address}  transport ${c.ip}:${c.port}  role ${roleOf(c)}`);
  }
  return root ? 0 : 1;
}

/**
 * `env`: prints the shell assignments a test (or a user) needs to reach this cluster: OPENSEARCH_URL
 * and, for a secured one, OPENSEARCH_CA and GEOSHARD_SECURE_STATE (the credentials file). No secret
 * is printed: the passwords stay in the file. Use: eval "$(node scripts/cluster.mjs env --secure)".
 */
async function env() {
  const lines = [`export OPENSEARCH_URL=${URL_}`];
  if (SECURE) {
    if (!exists(SECURE_STATE)) fail(`no secured cluster in ${DIR}: start it first ("node scripts/cluster.mjs start --secure")`);
    lines.push(`export OPENSEARCH_CA=${CA_FILE}`, `export GEOSHARD_SECURE_STATE=${SECURE_STATE}`);
  }
  console.log(lines.join('\n'));
  return 0;
}

const commands = { start, stop, status, env };
if (process.argv.includes('--plugin')) process.env.GEOSHARD_PLUGIN = '1';
const name = process.argv[2];
if (!commands[name]) {
  console.error('usage: node scripts/cluster.mjs start [--nodes N | --node K] [--reset] [--secure] | stop [--node K] [--secure] | status [--secure] | env [--secure]');
  process.exit(2);
}
try {
  process.exitCode = await commands[name](parseArgs(process.argv.slice(3)));
} catch (e) {
  console.error(`[cluster] ERROR: ${e instanceof CliError ? e.message : e.stack || e}`);
  process.exitCode = 1;
}
