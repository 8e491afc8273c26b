#!/usr/bin/env bash
# `npm test`: every test geoshard has, on a fresh machine.
#   1. npm packages (npm ci when node_modules is missing)
#   2. Debian's chromium for the browser tests (installed with apt-get when missing and root;
#      otherwise stops at once and names the command that installs it)
#   3. typecheck (the whole tree, and src/core alone against ES2022 with no DOM or Node types),
#      the package build (npm run build:lib: dist/ for the CLI tests and the pack test),
#   4. unit tests (vitest, including the pack-and-import test), 5. a real 3-node OpenSearch 2.19 cluster on loopback
#      (npm run cluster:start fetches it from Maven Central the first time) and the whole live
#      suite against it, the multi-node tests included,
#   6. browser tests (Playwright driving /usr/bin/chromium),
#   7. a 1-node OpenSearch 3.8 on a free port and the live subset that checks the engine itself:
#      shard names and verify-routing (routing.live), routed = unrouted (api.live), drift and
#      failures (failures.live), the routing pipeline's fidelity (pipeline.live), mid-move exclusions of
#      documents on cell edges (rangeFilter.live), the covering's pad (circlePad.live), the geoshard plugin
#      (plugin.live: both clusters start with --plugin, built by the plugin step before); 8. a secured 2.19.4
#      node (security plugin, TLS from its own CA, the roles of src/cluster/roles.json, the geoshard plugin) and the
#      secured tests (src/**/*.secure.test.ts; GEOSHARD_SKIP_SECURE=1 skips them); 9. a summary line.
# A local node already answering on OPENSEARCH_PORT (default 9200) is reused as it is (the
# multi-node tests skip, saying why, when it has fewer than 3 nodes), and left running.
# Set OPENSEARCH_URL to run the live tests against another cluster instead of a local one (the
# 3.8 step is then skipped); GEOSHARD_SKIP_OS3=1 skips the 3.8 step.
set -uo pipefail
# Creating a 15-shard index across nodes can take longer than a search's 10 s on a busy 2-core machine.
export OPENSEARCH_TIMEOUT_MS=${OPENSEARCH_TIMEOUT_MS:-30000}
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

step "package build (dist/: the core and geoshard/opensearch with their types, the CLI bundle)"
npm run --silent build:lib || failed+=(build-lib)

step "OpenSearch plugin: Java tests, then one zip per supported version (plugin/, docs/plugin.md)"
t_plugin=$SECONDS
node scripts/plugin.mjs build || failed+=(plugin)
echo "(plugin step: $((SECONDS - t_plugin)) s)"

step "unit tests"
npx vitest run --project unit --reporter=default --reporter=json --outputFile=test-results/unit.json || failed+=(unit)

step "OpenSearch cluster for the live tests (3 nodes, 2.19, with the geoshard plugin)"
started_cluster=0
t_cluster=$SECONDS
if [ -z "${OPENSEARCH_URL:-}" ] && ! node scripts/cluster.mjs status >/dev/null 2>&1; then
  # A cache that holds a cluster of another size keeps its data: start that one instead
  # (the multi-node tests then skip, saying why).
  if node scripts/cluster.mjs start --nodes 3 --plugin || node scripts/cluster.mjs start --plugin; then started_cluster=1; else failed+=(cluster); fi
fi
echo "(cluster step: $((SECONDS - t_cluster)) s)"

if [ -z "${OPENSEARCH_URL:-}" ] && [ "$started_cluster" = 0 ] && ! node scripts/cluster.mjs status >/dev/null 2>&1; then
  echo "no OpenSearch node: live tests not run"; failed+=(live)
else
  step "live tests (real OpenSearch)"
  t_live=$SECONDS
  npx vitest run --project live --passWithNoTests --reporter=default --reporter=json --outputFile=test-results/live.json || failed+=(live)
  echo "(live tests: $((SECONDS - t_live)) s)"
fi

step "browser tests (Playwright, Debian chromium)"
# E2E_STOP_NODE=1: the Nodes view test stops a real node of the local 3-node cluster and starts it
# again (it skips, saying why, on any other cluster). Set E2E_STOP_NODE=0 to leave it out.
t_e2e=$SECONDS
E2E_STOP_NODE=${E2E_STOP_NODE:-1} CHROMIUM_PATH="$CHROMIUM" npx playwright test -c e2e/playwright.config.ts || failed+=(e2e)
echo "(browser tests: $((SECONDS - t_e2e)) s)"

if [ "$started_cluster" = 1 ]; then
  step "stopping the OpenSearch cluster"
  node scripts/cluster.mjs stop || true
fi

if [ -z "${OPENSEARCH_URL:-}" ] && [ "${GEOSHARD_SKIP_OS3:-}" != 1 ]; then
  step "live subset on OpenSearch 3.8 (1 node, Java 21+)"
  t_os3=$SECONDS
  # A free HTTP port from 9600 up; the script picks the transport port (never 9200..9299).
  os3_port=$(node -e '
    const net = require("node:net");
    const free = (p) => new Promise((r) => { const s = net.createServer(); s.once("error", () => r(false)); s.listen(p, "127.0.0.1", () => s.close(() => r(true))); });
    (async () => { for (let p = 9600; p < 9700; p++) if (await free(p)) { console.log(p); return; } process.exit(1); })();')
  if [ -n "$os3_port" ] && OPENSEARCH_VERSION=3.8.0 OPENSEARCH_PORT=$os3_port node scripts/cluster.mjs start --nodes 1 --plugin; then
    OPENSEARCH_URL=http://127.0.0.1:$os3_port npx vitest run --project live \
      src/ops/routing/routing.live.test.ts src/server/api.live.test.ts src/server/failures.live.test.ts src/ops/routing/pipelineInstall.live.test.ts src/ops/routing/searchPipelineInstall.live.test.ts src/opensearch/plugin.live.test.ts src/opensearch/rangeFilter.live.test.ts src/opensearch/circlePad.live.test.ts src/ops/traffic/cellCounters.live.test.ts \
      --reporter=default --reporter=json --outputFile=test-results/live-os3.json || failed+=(live-os3)
    OPENSEARCH_VERSION=3.8.0 OPENSEARCH_PORT=$os3_port node scripts/cluster.mjs stop || true
  else
    failed+=(os3)
  fi
  echo "(OpenSearch 3.8 step: $((SECONDS - t_os3)) s)"
fi

if [ -z "${OPENSEARCH_URL:-}" ] && [ "${GEOSHARD_SKIP_SECURE:-}" != 1 ]; then
  step "secured OpenSearch 2.19.4 (security plugin, TLS, roles of src/cluster/roles.json) and the secured tests"
  t_sec=$SECONDS
  # A free HTTP port from 9700 up; the node has its own CA, users and roles (docs/security.md).
  sec_port=$(node -e '
    const net = require("node:net");
    const free = (p) => new Promise((r) => { const s = net.createServer(); s.once("error", () => r(false)); s.listen(p, "127.0.0.1", () => s.close(() => r(true))); });
    (async () => { for (let p = 9700; p < 9800; p++) if (await free(p)) { console.log(p); return; } process.exit(1); })();')
  if [ -n "$sec_port" ] && OPENSEARCH_PORT=$sec_port OPENSEARCH_HEAP=${OPENSEARCH_HEAP:-512m} node scripts/cluster.mjs start --secure --nodes 1 --plugin; then
    ( eval "$(OPENSEARCH_PORT=$sec_port node scripts/cluster.mjs env --secure)" && npx vitest run --project secure \
        --reporter=default --reporter=json --outputFile=test-results/secure.json ) || failed+=(secure)
    OPENSEARCH_PORT=$sec_port node scripts/cluster.mjs stop --secure || true
  else
    failed+=(secure-node)
  fi
  echo "(secured step: $((SECONDS - t_sec)) s)"
fi

node scripts/test-summary.mjs test-results/unit.json test-results/live.json test-results/e2e.json test-results/live-os3.json test-results/secure.json || failed+=(summary)
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all tests passed"
