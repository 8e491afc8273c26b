// Fetching the distribution and modules from Maven Central, and installing them. Part of scripts/cluster.mjs (its header says what it does).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SECURE, VERSION, RUN_USER, DIR, DOWNLOAD_DIR, HOME, INSTALLED_MARKER, DIST_ARTIFACT, DIST_ZIP, EXTRA_MODULES } from './settings.mjs';
import { log, fail, exists, secondsSince, which, run } from './util.mjs';
import { ensureZip } from '../plugin.mjs';

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
    `extended.plugins=${(m.extended ?? []).join(',')}`,
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
    if (exists(path.join(modDir, 'plugin-descriptor.properties'))) continue; // added before, or bundled (3.x)
    for (const j of m.jars) {
      if (exists(path.join(DOWNLOAD_DIR, j.jar))) continue;
      log(`downloading ${j.artifact} (module ${m.name}) with mvn...`);
      mvnCopy(j.artifact, DOWNLOAD_DIR);
      if (!exists(path.join(DOWNLOAD_DIR, j.jar))) fail(`Maven finished but ${path.join(DOWNLOAD_DIR, j.jar)} is missing`);
    }
    log(`adding module ${m.name} -> ${modDir}`);
    // Built in a staging folder and renamed, so that an interrupted install never leaves a module
    // folder with a descriptor but missing jars.
    const staging = `${modDir}.tmp-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    for (const j of m.jars) fs.copyFileSync(path.join(DOWNLOAD_DIR, j.jar), path.join(staging, j.jar));
    if (m.policy) fs.writeFileSync(path.join(staging, 'plugin-security.policy'), m.policy);
    writeDescriptor(staging, m);
    fs.rmSync(modDir, { recursive: true, force: true });
    fs.renameSync(staging, modDir);
  }

  if (!exists(INSTALLED_MARKER)) fs.writeFileSync(INSTALLED_MARKER, `${new Date().toISOString()}\n`);
  if (SECURE) installSecurityPlugin(javaHome);
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


const SECURITY_ARTIFACT = `org.opensearch.plugin:opensearch-security:${VERSION}.0:zip`;
const SECURITY_ZIP = path.join(DOWNLOAD_DIR, `opensearch-security-${VERSION}.0.zip`);

/** Adds the security plugin to home/plugins (once), from Maven Central like the distribution. */
function installSecurityPlugin(javaHome) {
  if (exists(path.join(HOME, 'plugins', 'opensearch-security', 'plugin-descriptor.properties'))) return;
  if (!exists(SECURITY_ZIP)) {
    log(`downloading ${SECURITY_ARTIFACT} from Maven Central with mvn...`);
    mvnCopy(SECURITY_ARTIFACT, DOWNLOAD_DIR);
    if (!exists(SECURITY_ZIP)) fail(`Maven finished but ${SECURITY_ZIP} is missing (the plugin is served for 2.19.4, not every version: set OPENSEARCH_VERSION=2.19.4)`);
  }
  log(`installing the security plugin ${path.basename(SECURITY_ZIP)}...`);
  run(path.join(HOME, 'bin', 'opensearch-plugin'), ['install', '--batch', `file://${SECURITY_ZIP}`], {
    cwd: HOME,
    env: { PATH: process.env.PATH, JAVA_HOME: javaHome, OPENSEARCH_JAVA_HOME: javaHome, OPENSEARCH_PATH_CONF: path.join(HOME, 'config') },
  });
  chmodTools();
}

function chmodTools() {
  const tools = path.join(HOME, 'plugins', 'opensearch-security', 'tools');
  if (exists(tools)) for (const f of fs.readdirSync(tools)) if (f.endsWith('.sh')) fs.chmodSync(path.join(tools, f), 0o755);
}


/**
 * Installs this repository's OpenSearch plugin (plugin/, docs/plugin.md) when GEOSHARD_PLUGIN=1
 * (`start --plugin`), built for the node's version by scripts/plugin.mjs when its zip is missing,
 * and removes it otherwise, so the flag says what runs. A zip that changed since it was installed
 * (its size and time, recorded beside the plugin) is installed again.
 */
function syncGeoshardPlugin(javaHome) {
  const dir = path.join(HOME, 'plugins', 'geoshard');
  const marker = path.join(HOME, 'plugins', '.geoshard-zip');
  const tool = path.join(HOME, 'bin', 'opensearch-plugin');
  const env = { PATH: process.env.PATH, JAVA_HOME: javaHome, OPENSEARCH_JAVA_HOME: javaHome, OPENSEARCH_PATH_CONF: path.join(HOME, 'config') };
  const wanted = process.env.GEOSHARD_PLUGIN === '1';
  if (!wanted) {
    if (exists(dir)) {
      log('removing the geoshard plugin (start without --plugin)...');
      run(tool, ['remove', 'geoshard'], { cwd: HOME, env });
      fs.rmSync(marker, { force: true });
    }
    return;
  }
  const zip = ensureZip(VERSION);
  const st = fs.statSync(zip);
  const stamp = `${zip} ${st.size} ${st.mtimeMs}`;
  if (exists(dir) && exists(marker) && fs.readFileSync(marker, 'utf8') === stamp) return;
  if (exists(dir)) run(tool, ['remove', 'geoshard'], { cwd: HOME, env });
  log(`installing the geoshard plugin ${path.basename(zip)}...`);
  run(tool, ['install', '--batch', `file://${zip}`], { cwd: HOME, env });
  fs.writeFileSync(marker, stamp);
}

export { mvnCopy, unzip, writeDescriptor, install, ensureRunUser, installSecurityPlugin, syncGeoshardPlugin };
