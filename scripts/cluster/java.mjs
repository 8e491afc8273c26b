// The Java a node runs on. Part of scripts/cluster.mjs (its header says what it does).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { VERSION, MAJOR } from './settings.mjs';
import { fail, exists, which } from './util.mjs';

function javaMajor(javaHome) {
  const bin = path.join(javaHome, 'bin', 'java');
  if (!exists(bin)) return null;
  const r = spawnSync(bin, ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  const m = /java\.specification\.version = (\d+)(?:\.(\d+))?/.exec(`${r.stderr}${r.stdout}`);
  if (!m) return null;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

function findJavaHome() {
  // 2.x relies on the Security Manager (gone in Java 24+); 3.x dropped it and needs Java 21+.
  const [lo, hi] = MAJOR >= 3 ? [21, Infinity] : [11, 23];
  const range = hi === Infinity ? `${lo}+` : `${lo}..${hi}`;
  const supported = (v) => v !== null && v >= lo && v <= hi;
  const explicit = process.env.OPENSEARCH_JAVA_HOME;
  if (explicit) {
    const v = javaMajor(explicit);
    if (!supported(v)) {
      fail(
        `OPENSEARCH_JAVA_HOME=${explicit} is ${v === null ? 'not a Java home' : `Java ${v}`}; ` +
          `OpenSearch ${VERSION} needs Java ${range}` +
          (MAJOR >= 3 ? '.' : ' (it relies on the Security Manager, gone in 24+).'),
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
    const feature = (n) => Number(/(?:^|[-.])(\d{2})(?:[-.]|$)/.exec(n)?.[1] ?? 0);
    // 2.x: Java 21, then 17 (the versions its release was tested on); 3.x: the newest.
    const prefer = (n) => (MAJOR >= 3 ? -feature(n) : /-21|21[.-]/.test(n) ? 0 : /-17|17[.-]/.test(n) ? 1 : 2);
    const listed = fs.readdirSync(jvmDir).sort((a, b) => prefer(a) - prefer(b)).map((n) => path.join(jvmDir, n));
    // For 3.x look at /usr/lib/jvm before JAVA_HOME / the java on PATH, which are often a 17.
    if (MAJOR >= 3) candidates.unshift(...listed);
    else candidates.push(...listed);
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
    `no Java ${range} found for OpenSearch ${VERSION}` +
      (rejected.length ? ` (found only: ${rejected.join(', ')})` : '') +
      `. Install one (e.g. apt-get install ${MAJOR >= 3 ? 'temurin-25-jdk' : 'openjdk-17-jdk-headless'}) or set OPENSEARCH_JAVA_HOME.`,
  );
}


export { javaMajor, findJavaHome };
