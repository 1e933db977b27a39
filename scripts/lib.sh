#!/usr/bin/env bash
# Shared steps of scripts/test.sh and scripts/demo.sh. Each step is idempotent: running it on a
# machine that already has what it provides costs a second or two.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export REPO
cd "$REPO"
mkdir -p .run/logs

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf '\033[31mERROR: %s\033[0m\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# npm dependencies, including Node 24 itself (the `node` devDependency puts it in node_modules/.bin,
# which npm scripts put first on PATH; we do the same for anything run from these scripts).
ensure_deps() {
  command -v npm >/dev/null || fail "npm is needed to install the project (install Node.js and npm from Debian: apt-get install nodejs npm)"
  if [ -L node_modules ]; then
    # A git worktree sharing another checkout's install: `npm ci` would empty that one in place.
    say "node_modules is a link to $(readlink node_modules): using it as it is (no npm ci)"
  elif [ ! -x node_modules/.bin/node ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "installing npm dependencies (npm ci), including Node 24"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  export PATH="$REPO/node_modules/.bin:$PATH"
  # kafkajs 2.2 arms negative timers that Node 24 warns about (see libs/observability/src/process-warnings.ts).
  export NODE_OPTIONS="${NODE_OPTIONS:-} --disable-warning=TimeoutNegativeWarning"
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 24 ] || fail "Node 24+ expected from node_modules/.bin/node, got $(node --version)"
}

# PostgreSQL on 127.0.0.1:5432. Started where it is installed but stopped; never installed here.
ensure_postgres() {
  local host=${PGHOST_CHECK:-127.0.0.1} port=${PGPORT_CHECK:-5432}
  if port_open "$host" "$port"; then return 0; fi
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    say "PostgreSQL is installed but not running: starting it"
    for v in /etc/postgresql/*; do
      pg_ctlcluster --skip-systemctl-redirect "$(basename "$v")" main start || true
    done
    for _ in $(seq 1 30); do port_open "$host" "$port" && return 0; sleep 1; done
  fi
  fail "PostgreSQL is not reachable on $host:$port. Start it, or point DATABASE_URL (and TEST_DATABASE_URL) at one."
}

ensure_kafka() {
  if port_open 127.0.0.1 "${KAFKA_PORT:-9092}"; then return 0; fi
  say "starting Kafka (KRaft, single node) on 127.0.0.1:${KAFKA_PORT:-9092}"
  bash tools/kafka/kafka.sh start
}

# helm-java (Helm's template engine as a Java library with its native part, from Maven Central):
# test/deploy renders deploy/helm/payouts with it. Fetched once into tools/helm/libs (about 15 s,
# 30 MB). The test would fetch it too (tools/helm/helm.sh render does); here it is done up front.
ensure_helm() {
  bash tools/helm/helm.sh fetch
}

# promtool (Debian's `prometheus` package) lets the tests run `promtool check rules` on
# deploy/prometheus/alerts.yml. Installed only when missing, as root, with apt-get; about 15 s here
# without recommends. If it cannot be installed, tests skip that one check (the parser check runs).
ensure_promtool() {
  command -v promtool >/dev/null && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    say "promtool not found and not installable here (needs root and apt-get); skipping its check"
    return 0
  fi
  say "installing promtool (apt-get install prometheus, no recommends)"
  # A fresh machine may have no package lists yet: try as is, then once more after an update.
  if ! DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1; then
    if ! { timeout 120 apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1; }; then
      say "could not install prometheus; the promtool check is skipped"
    fi
  fi
  return 0
}

# Debian's chromium drives the web console's browser test (test/console/, playwright-core with
# executablePath /usr/bin/chromium). Installed only when missing, as root, with apt-get (about a
# minute and ~300 MB the first time). If it cannot be installed, that test skips and says why.
ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    say "chromium not found at /usr/bin/chromium and not installable here (needs root and apt-get); the console's browser test is skipped"
    return 0
  fi
  say "installing chromium (apt-get install chromium, no recommends) for the console's browser test"
  if ! DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; then
    if ! { timeout 120 apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; }; then
      say "could not install chromium; the console's browser test is skipped"
    fi
  fi
  return 0
}

build() {
  say "compiling TypeScript (tsc, strict)"
  tsc -p tsconfig.build.json
}
