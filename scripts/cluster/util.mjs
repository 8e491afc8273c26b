// Small helpers: logging, processes, HTTP requests to the nodes, pid files. Part of scripts/cluster.mjs (its header says what it does).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { SECURE, nodePaths, CA_FILE, adminCredentials } from './settings.mjs';

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

function logHint(k) {
  const p = nodePaths(k);
  const parts = [];
  const main = tail(p.mainLog);
  if (main && main.trim()) parts.push(`--- last lines of ${p.mainLog} ---\n${main}`);
  // console.log collects the launcher's output of every start: show only the last start.
  const con = tail(p.consoleLog, 200);
  if (con && con.trim()) {
    const lastRun = con.slice(Math.max(0, con.lastIndexOf('\n==== '))).trim().split('\n').slice(-40).join('\n');
    parts.push(`--- launcher output of this start (${p.consoleLog}) ---\n${lastRun}`);
  }
  if (!parts.length) parts.push(`(no log output yet; logs go to ${p.logs})`);
  return `[node ${k}]\n${parts.join('\n')}`;
}

/**
 * Sends one request and returns { status, body } (body parsed as JSON when it is), or null when
 * nothing answers. In secure mode it trusts only this cluster's CA (certs/root-ca.pem, host name
 * verified) and authenticates as the admin user (secure.json), unless `auth` says otherwise.
 */
function requestJson(url, { method = 'GET', body, timeoutMs = 5000, auth } = {}) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const secureOpts = u.protocol === 'https:' ? { ca: exists(CA_FILE) ? fs.readFileSync(CA_FILE) : undefined } : {};
    const cred = auth ?? (SECURE ? adminCredentials() : null);
    const headers = { accept: 'application/json' };
    if (cred) headers.authorization = `Basic ${Buffer.from(`${cred.username}:${cred.password}`).toString('base64')}`;
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (data) headers['content-type'] = 'application/json';
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(u, { method, headers, timeout: timeoutMs, ...secureOpts }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, body: parsed });
      });
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(data);
  });
}

/** GET a JSON document; returns { status, body } or null when nothing answers. */
const getJson = (url, timeoutMs = 5000) => requestJson(url, { timeoutMs });

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

function readPid(k) {
  try {
    const pid = Number(fs.readFileSync(nodePaths(k).pid, 'utf8').trim());
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

function runningPid(k) {
  const pid = readPid(k);
  return pid && isAlive(pid) ? pid : null;
}


export { CliError, log, fail, sleep, exists, secondsSince, which, run, tail, logHint, requestJson, getJson, probe, portOpen, describe, readPid, isAlive, runningPid };
