#!/usr/bin/env bash
# `npm test`: installs what is missing, starts what the tests need, then runs format, lint,
# typecheck, the architecture check, unit tests and integration tests against real Kafka and
# PostgreSQL, and ends with a summary. Exit status is non-zero if any step failed.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

started=$(date +%s)
declare -a names=() results=() durations=()
overall=0

step() {
  local name=$1; shift
  local t0 rc
  t0=$(date +%s)
  say "$name"
  set +e
  "$@"
  rc=$?
  set -e
  names+=("$name"); durations+=("$(( $(date +%s) - t0 ))s")
  if [ $rc -eq 0 ]; then results+=("ok"); else results+=("FAILED ($rc)"); overall=1; fi
  return 0
}

ensure_deps
ensure_postgres
ensure_kafka
ensure_promtool
ensure_helm
ensure_chromium

step "format (prettier --check)" prettier --check --log-level warn .
step "lint (eslint, warnings fail)" eslint --max-warnings 0 .
# The console's plain ES modules are checked from their JSDoc types (nothing emitted; served as written).
clean_build() { rm -rf dist && tsc -p tsconfig.build.json && tsc -p apps/payout-service/console/tsconfig.json; }
step "typecheck + clean build (tsc)" clean_build
# Fast (no database): reads the repositories' sources; `npm run sql` rewrites the files.
step "checked-in SQL (npm run sql drift)" node dist/scripts/sql.js --check
# Fast (no server): the served document against docs/ops-openapi.json; `npm run ops:openapi` rewrites it.
step "ops OpenAPI (npm run ops:openapi drift)" node dist/scripts/ops-openapi.js --check
step "architecture (dependency-cruiser)" depcruise --config .dependency-cruiser.cjs --output-type err apps libs test migrations
step "test template database" node dist/test/support/prepare-template.js

test_log=.run/logs/tests.log
run_tests() {
  # One runner for unit (*.spec) and integration (*.int-spec) tests, so its closing lines count
  # them all, the slowest files first (`node --test` would sort them by name). Two files at a
  # time: this is a 2-core machine.
  node dist/scripts/run-tests.js --concurrency=2 2>&1 | tee "$test_log"
  return "${PIPESTATUS[0]}"
}
step "unit + integration tests (node --test)" run_tests

echo
say "summary ($(( $(date +%s) - started ))s)"
for i in "${!names[@]}"; do printf '  %-45s %-12s %s\n' "${names[$i]}" "${results[$i]}" "${durations[$i]}"; done
pass=$(grep -E '^ℹ pass [0-9]+' "$test_log" | tail -1 | awk '{print $3}' || true)
failed=$(grep -E '^ℹ fail [0-9]+' "$test_log" | tail -1 | awk '{print $3}' || true)
echo
echo "${pass:-0} passed, ${failed:-0} failed"
exit $overall
