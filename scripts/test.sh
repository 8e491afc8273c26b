#!/usr/bin/env bash
# `npm test`: every test geoshard has, on a fresh machine.
#   1. npm packages (npm ci when node_modules is missing)
#   2. Debian's chromium for the browser tests (installed with apt-get when missing and root;
#      otherwise stops at once and names the command that installs it)
#   3. typecheck (the whole tree, and src/core alone against ES2022 with no DOM or Node types),
#      the package build (npm run build:lib: dist/ for the CLI tests and the pack test),
#   4. unit tests (vitest, including the pack-and-import test), 5. a real OpenSearch node (npm run cluster:start
#      fetches it from Maven Central the first time) and the live tests against it,
#   6. browser tests (Playwright driving /usr/bin/chromium), 7. a summary line.
# Set OPENSEARCH_URL to run the live tests against another cluster instead of a local node.
set -uo pipefail
export VITE_CONFIG_NATIVE_IGNORE_WARNING=${VITE_CONFIG_NATIVE_IGNORE_WARNING:-true}
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/*.json

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
failed=()

if [ ! -d node_modules/vite ]; then
  step "installing npm packages (npm ci)"
  npm ci || { echo "npm ci failed"; exit 1; }
fi

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing Debian's chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || { echo "could not install chromium: run: apt-get update && apt-get install -y chromium"; exit 1; }
  else
    echo "The browser tests need Debian's chromium at $CHROMIUM. Install it with:"
    echo "  sudo apt-get update && sudo apt-get install -y chromium"
    exit 1
  fi
fi

step "typecheck"
npx tsc --noEmit -p tsconfig.json || failed+=(typecheck)

step "core typecheck (ES2022 only: a DOM or Node import in src/core fails here)"
npx tsc --noEmit -p src/core/tsconfig.json || failed+=(core-typecheck)

step "package build (dist/: the core with its types, the CLI, the server)"
npm run --silent build:lib || failed+=(build-lib)

step "unit tests"
npx vitest run --project unit --reporter=default --reporter=json --outputFile=test-results/unit.json || failed+=(unit)

step "OpenSearch node for the live tests"
started_cluster=0
if [ -z "${OPENSEARCH_URL:-}" ] && ! node scripts/cluster.mjs status >/dev/null 2>&1; then
  if node scripts/cluster.mjs start; then started_cluster=1; else failed+=(cluster); fi
fi

if [ -z "${OPENSEARCH_URL:-}" ] && [ "$started_cluster" = 0 ] && ! node scripts/cluster.mjs status >/dev/null 2>&1; then
  echo "no OpenSearch node: live tests not run"; failed+=(live)
else
  step "live tests (real OpenSearch)"
  npx vitest run --project live --passWithNoTests --reporter=default --reporter=json --outputFile=test-results/live.json || failed+=(live)
fi

step "browser tests (Playwright, Debian chromium)"
CHROMIUM_PATH="$CHROMIUM" npx playwright test -c e2e/playwright.config.ts || failed+=(e2e)

if [ "$started_cluster" = 1 ]; then
  step "stopping the OpenSearch node"
  node scripts/cluster.mjs stop || true
fi

node scripts/test-summary.mjs test-results/unit.json test-results/live.json test-results/e2e.json || failed+=(summary)
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all tests passed"
