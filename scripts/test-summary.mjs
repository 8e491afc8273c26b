#!/usr/bin/env node
// Adds up the JSON reports of vitest and Playwright into one closing line,
// "tests: N passed, N failed, N skipped", and exits 1 if any failed.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if (r.stats) {
    // Playwright
    passed += (r.stats.expected ?? 0) + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected ?? 0;
    skipped += r.stats.skipped ?? 0;
  } else {
    // vitest
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
