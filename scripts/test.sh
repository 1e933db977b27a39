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

# A step that runs beside the next ones (format and lint read only the sources, one core each):
# its output goes to .run/logs/<slug>.log and is shown if it fails; `collect` waits for it and
# puts it in the summary in the order it was started.
declare -a bg_pids=() bg_names=() bg_logs=() bg_slots=()
step_beside() {
  local name=$1 slug=$2; shift 2
  local log=.run/logs/$slug.log
  say "$name (beside the build; log: $log)"
  ( t0=$(date +%s); set +e; "$@" >"$log" 2>&1; rc=$?; echo "$rc $(( $(date +%s) - t0 ))" >"$log.rc" ) &
  bg_pids+=("$!"); bg_names+=("$name"); bg_logs+=("$log")
  names+=("$name"); results+=("running"); durations+=("")
  bg_slots+=("$(( ${#names[@]} - 1 ))")
}
collect() {
  local i rc secs slot
  for i in "${!bg_pids[@]}"; do
    wait "${bg_pids[$i]}" || true
    read -r rc secs <"${bg_logs[$i]}.rc"
    slot=${bg_slots[$i]}
    durations[slot]="${secs}s"
    if [ "$rc" -eq 0 ]; then results[slot]="ok"; else
      results[slot]="FAILED ($rc)"; overall=1
      say "${bg_names[$i]} failed:"; cat "${bg_logs[$i]}"
    fi
  done
}

ensure_deps
ensure_postgres
ensure_kafka
ensure_promtool
ensure_helm
ensure_chromium

step_beside "format (prettier --check)" format prettier --check --log-level warn .
step_beside "lint (eslint, warnings fail)" lint eslint --max-warnings 0 .
# The console's plain ES modules are checked from their JSDoc types (nothing emitted; served as written).
clean_build() { rm -rf dist && tsc -p tsconfig.build.json && tsc -p apps/payout-service/console/tsconfig.json; }
step "typecheck + clean build (tsc)" clean_build
# Fast (no database): reads the repositories' sources; `npm run sql` rewrites the files.
step "checked-in SQL (npm run sql drift)" node dist/scripts/sql.js --check
# Fast (no server): the served document against docs/ops-openapi.json; `npm run ops:openapi` rewrites it.
step "ops OpenAPI (npm run ops:openapi drift)" node dist/scripts/ops-openapi.js --check
# The import rules, then the provider's words in the pipeline (derived from the connector's tables, issue 31).
architecture() {
  depcruise --config .dependency-cruiser.cjs --output-type err apps libs test migrations scripts &&
    node dist/scripts/provider-words.js
}
step "architecture (dependency-cruiser, provider words)" architecture
step "test template database" node dist/test/support/prepare-template.js
collect

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
count() { grep -E "^ℹ $1 [0-9]+" "$test_log" | tail -1 | awk '{print $3}' || true; }
pass=$(count pass); failed=$(count fail); cancelled=$(count cancelled); skipped=$(count skipped); todo=$(count todo)
echo
# A cancelled test (it timed out, or its file ended early) is not a pass; the runner already fails
# on it. A skipped one is a check that did not run (the browser tests where chromium could not be
# installed, promtool's rule check where promtool is missing): shown here, and under CI=true the
# test files themselves fail instead of skipping (test/support/requirements.ts).
echo "${pass:-0} passed, ${failed:-0} failed, ${cancelled:-0} cancelled, ${skipped:-0} skipped, ${todo:-0} todo"
exit $overall
