// The command line and the recorded cluster (cluster.json), and its ports. Part of scripts/cluster.mjs (its header says what it does).

import fs from 'node:fs';
import net from 'node:net';
import { VERSION, PORT, HTTP_RANGE, MAX_NODES, DIR, STATE_FILE, PORT_FILE, nodeName } from './settings.mjs';
import { fail, runningPid } from './util.mjs';

function parseArgs(argv) {
  const out = { nodes: null, node: null, reset: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, null];
    if (flag === '--reset') {
      out.reset = true;
      continue;
    }
    if (flag === '--secure') continue; // read at the top (SECURE)
    if (flag === '--plugin') continue; // read by scripts/cluster.mjs (GEOSHARD_PLUGIN=1)
    if (flag !== '--nodes' && flag !== '--node') fail(`unknown argument ${JSON.stringify(a)}: expected --nodes N, --node K, --reset, --secure or --plugin`);
    const v = inline ?? argv[++i];
    const n = Number(v);
    if (v === undefined || !/^\d+$/.test(String(v)) || n < 1 || n > MAX_NODES) {
      fail(`${flag} ${JSON.stringify(v ?? '')} is invalid: expected an integer in [1, ${MAX_NODES}]`);
    }
    out[flag.slice(2)] = n;
  }
  if (out.nodes !== null && out.node !== null) fail('give either --nodes N (the whole cluster) or --node K (one node), not both');
  return out;
}

/** The recorded cluster (cluster.json), or null. Node 1 started by an older script counts as a 1-node cluster. */
function readState() {
  try {
    const s = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
    if (Array.isArray(s.nodes) && s.nodes.length >= 1) return s;
  } catch {
    /* none */
  }
  if (runningPid(1)) {
    let http = PORT;
    try {
      http = Number(fs.readFileSync(PORT_FILE, 'utf8').trim()) || PORT;
    } catch {
      /* older script */
    }
    return { version: VERSION, heap: '1g', nodes: [{ n: 1, name: nodeName(1), http, transport: null }] };
  }
  return null;
}

function writeState(state) {
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${STATE_FILE}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, STATE_FILE);
}

/** Whether a TCP port on 127.0.0.1 can be bound now (nothing listens on it). */
function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * Ports for nodes 1..n: node 1's HTTP port is PORT; recorded ports are kept when still free (or
 * held by the node itself); new ones are probed. Transport ports never fall in HTTP_RANGE.
 */
async function choosePorts(n, recorded) {
  const taken = new Set([PORT]);
  const ok = async (port, ownerUp) => port > 0 && port < 65536 && !taken.has(port) && (ownerUp || (await portFree(port)));
  const nodes = [];
  for (let k = 1; k <= n; k++) {
    const rec = recorded?.nodes?.find((x) => x.n === k);
    const up = !!runningPid(k);
    let http = k === 1 ? PORT : null;
    if (http === null && rec?.http && (await ok(rec.http, up))) http = rec.http;
    for (let p = PORT + 1; http === null && p < PORT + 100; p++) if (await ok(p, false)) http = p;
    if (http === null) fail(`no free HTTP port in ${PORT + 1}..${PORT + 99} for node ${k}`);
    taken.add(http);
    nodes.push({ n: k, name: nodeName(k), http, transport: rec?.transport ?? null, up });
  }
  for (const node of nodes) {
    const inHttpRange = (p) => p >= HTTP_RANGE[0] && p <= HTTP_RANGE[1];
    let t = node.transport && !inHttpRange(node.transport) && (await ok(node.transport, node.up)) ? node.transport : null;
    for (let p = PORT + 100; t === null && p < PORT + 1000; p++) if (!inHttpRange(p) && (await ok(p, false))) t = p;
    if (t === null) fail(`no free transport port in ${PORT + 100}..${PORT + 999} for node ${node.n}`);
    taken.add(t);
    node.transport = t;
  }
  return nodes.map(({ up: _up, ...rest }) => rest);
}


export { parseArgs, readState, writeState, portFree, choosePorts };
