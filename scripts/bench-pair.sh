#!/usr/bin/env bash
# `npm run bench:pair -- OLD NEW [PAIRS]`: two commits' pipeline bench in alternating runs on this
# machine, for "costs no more than x % against the old commit in the same run" (docs/BENCHMARKS.md,
# sessions 18 and 19). Each commit is built in its own worktree (BENCH_PAIR_OLD_DIR, default
# /tmp/bench-old; BENCH_PAIR_NEW_DIR, /tmp/bench-new; node_modules linked to this checkout's),
# then PAIRS (3) rounds each run every side once with
#   BENCH_RUNS=1 BENCH_PHASES=raw,e2e BENCH_RECORD=0 BENCH_DATABASE_URL=<base>_<side>
# one side after the other, the order reversed every other round (so no side always goes first
# on a box whose load drifts). Sides (BENCH_PAIR_SIDES, default "old new-off new-on"):
#   old      OLD as it is;   new-off  NEW, holding for funds off;
#   new-on   NEW with BENCH_FUNDS_HOLD=1 (bench/funds-hold.ts: FUNDS_HOLD on the bench's account,
#            funded far above the bench, the balance reader on; nothing is held, the check runs).
# Recorded per run: the service's CPU per payout end to end, Postgres's, the pipeline's (every
# process of it), end-to-end and raw payouts/s, the load average (1 min) before and after, and
# for new-on whether every payout went through the funds-aware claim. Printed at the end: every
# run, each side's medians, and each round's ratio to old (service CPU), with their median.
# Logs and results.tsv in .run/bench-pair/<time>/. Other knobs go through to the bench
# (BENCH_E2E_N, BENCH_BALANCE_READ_INTERVAL_MS, ...). BENCH_PAIR_DB: the databases' base name
# (payouts_bench_pair). A run that fails is kept in the table as failed; the script goes on.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 2 ] || fail "usage: scripts/bench-pair.sh OLD NEW [PAIRS]   (commits or branches)"
OLD_REF=$1 NEW_REF=$2 PAIRS=${3:-3}
OLD=$(git -C "$REPO" rev-parse --verify "$OLD_REF^{commit}") || fail "not a commit: $OLD_REF"
NEW=$(git -C "$REPO" rev-parse --verify "$NEW_REF^{commit}") || fail "not a commit: $NEW_REF"
OLD_DIR=${BENCH_PAIR_OLD_DIR:-/tmp/bench-old}
NEW_DIR=${BENCH_PAIR_NEW_DIR:-/tmp/bench-new}
DB_BASE=${BENCH_PAIR_DB:-payouts_bench_pair}
PG_BASE=${BENCH_PAIR_PG:-postgres://postgres@127.0.0.1:5432}
PHASES=${BENCH_PAIR_PHASES:-raw,e2e}
read -r -a SIDES <<<"${BENCH_PAIR_SIDES:-old new-off new-on}"
for s in "${SIDES[@]}"; do
  case $s in old | new-off | new-on) ;; *) fail "BENCH_PAIR_SIDES: unknown side $s (old, new-off, new-on)" ;; esac
done
OUT=$REPO/.run/bench-pair/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"

ensure_deps
ensure_postgres
ensure_kafka
NODE_MODULES=$(readlink -f "$REPO/node_modules")

# A detached worktree of $2 at $1, built (dist/ rebuilt from scratch unless it is of that commit).
prepare() {
  local dir=$1 commit=$2
  if [ -e "$dir/.git" ]; then
    git -C "$dir" checkout --quiet --detach --force "$commit"
  else
    [ ! -e "$dir" ] || fail "$dir exists and is not a worktree: remove it or set BENCH_PAIR_*_DIR"
    git -C "$REPO" worktree add --quiet --detach "$dir" "$commit"
  fi
  [ -L "$dir/node_modules" ] || ln -s "$NODE_MODULES" "$dir/node_modules"
  if [ "$(cat "$dir/dist/.bench-pair-commit" 2>/dev/null)" != "$commit" ]; then
    say "building ${commit:0:9} in $dir"
    rm -rf "$dir/dist"
    (cd "$dir" && tsc -p tsconfig.build.json)
    echo "$commit" >"$dir/dist/.bench-pair-commit"
  fi
}
prepare "$OLD_DIR" "$OLD"
prepare "$NEW_DIR" "$NEW"

load1() { cut -d' ' -f1 /proc/loadavg; }
# The figure of the bench's row line "    <measure>: <number> <unit>" (commas dropped; "-" if absent;
# the table printed at the end, lines starting with "|", is not read).
figure() {
  local v
  v=$(awk -v m="    $2" 'index($0, m) == 1' "$1" | tail -n 1 | sed -E 's/.*: ([0-9][0-9,]*(\.[0-9]+)?) .*/\1/' | tr -d ,)
  echo "${v:--}"
}

TSV=$OUT/results.tsv
printf 'round\tside\tcommit\tload_before\tload_after\tminutes\tservice_ms\tpostgres_ms\tpipeline_ms\te2e_per_s\traw_per_s\thold\n' >"$TSV"

run_side() {
  local round=$1 side=$2 dir commit hold=0 log before after t0 status verified
  case $side in
    old) dir=$OLD_DIR commit=$OLD ;;
    new-off) dir=$NEW_DIR commit=$NEW ;;
    new-on) dir=$NEW_DIR commit=$NEW hold=1 ;;
  esac
  log=$OUT/round$round-$side.log
  before=$(load1)
  say "round $round of $PAIRS: $side (${commit:0:9}), load average $before"
  t0=$(date +%s)
  status=0
  (cd "$dir" && BENCH_RUNS=1 BENCH_PHASES=$PHASES BENCH_RECORD=0 BENCH_FUNDS_HOLD=$hold \
    BENCH_DATABASE_URL="$PG_BASE/${DB_BASE}_${side//-/_}" \
    node dist/bench/pipeline.bench.js) >"$log" 2>&1 || status=$?
  after=$(load1)
  verified=-
  if [ "$hold" = 1 ]; then
    if grep -q 'funds hold check: verified' "$log"; then verified=verified; else verified=NOT-verified; fi
  fi
  [ $status -eq 0 ] || verified="FAILED(exit $status)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$side" "${commit:0:9}" "$before" "$after" \
    "$(awk -v s=$(($(date +%s) - t0)) 'BEGIN { printf "%.1f", s / 60 }')" \
    "$(figure "$log" 'end to end: CPU per payout, the service:')" \
    "$(figure "$log" 'end to end: CPU per payout, Postgres:')" \
    "$(figure "$log" "end to end: CPU per payout, all the pipeline's processes")" \
    "$(figure "$log" 'end to end, one instance: ')" \
    "$(figure "$log" 'raw pipeline: consume')" \
    "$verified" >>"$TSV"
  tail -n 1 "$TSV" | awk -F'\t' '{ printf "    service %s ms/payout, postgres %s, e2e %s payouts/s, raw %s/s, load %s -> %s, %s min, %s\n", $7, $8, $10, $11, $4, $5, $6, $12 }'
  grep -E 'FAILED|funds hold check' "$log" | sed 's/^/    /' || true
}

started=$(date +%s)
for round in $(seq 1 "$PAIRS"); do
  order=("${SIDES[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    order=()
    for ((i = ${#SIDES[@]} - 1; i >= 0; i--)); do order+=("${SIDES[i]}"); done
  fi
  for side in "${order[@]}"; do run_side "$round" "$side"; done
done

echo
say "every run ($TSV)"
column -t -s $'\t' "$TSV"
echo
say "medians by side (failed runs left out)"
awk -F'\t' '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    if (n == 0) return "-"
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  NR == 1 { next }
  $12 ~ /FAILED/ || $7 == "-" { next }
  {
    seen[$2] = 1; n[$2]++
    svc[$2] = svc[$2] " " $7; pgc[$2] = pgc[$2] " " $8; pip[$2] = pip[$2] " " $9
    e2e[$2] = e2e[$2] " " $10; raw[$2] = raw[$2] " " $11; ld[$2] = ld[$2] " " $4
    if ($2 == "old") oldsvc[$1] = $7; else other[$1 SUBSEP $2] = $7
    if ($1 + 0 > maxround) maxround = $1 + 0
    if ($2 == "new-on" && $12 != "verified") unverified++
  }
  END {
    printf "%-8s %4s %12s %12s %12s %10s %10s %9s\n", "side", "runs", "service ms", "postgres ms", "pipeline ms", "e2e /s", "raw /s", "load"
    split("old new-off new-on", order, " ")
    for (k = 1; k <= 3; k++) { s = order[k]; if (!(s in seen)) continue
      printf "%-8s %4d %12.3f %12.3f %12.3f %10.0f %10.0f %9.2f\n", s, n[s], median(svc[s]), median(pgc[s]), median(pip[s]), median(e2e[s]), median(raw[s]), median(ld[s]) }
    for (k = 2; k <= 3; k++) { s = order[k]; if (!(s in seen) || !("old" in seen)) continue
      r = ""; for (i = 1; i <= maxround; i++) if (((i SUBSEP s) in other) && (i in oldsvc)) r = r " " sprintf("%.3f", other[i SUBSEP s] / oldsvc[i])
      m = median(r)
      if (m != "-") printf "service CPU per payout, %s / old, median of each round'"'"'s ratio: %.3f (%+.1f %%; rounds:%s)\n", s, m, (m - 1) * 100, r
      if (("old" in seen)) printf "service CPU per payout, median %s / median old: %.3f (%+.1f %%)\n", s, median(svc[s]) / median(svc["old"]), (median(svc[s]) / median(svc["old"]) - 1) * 100 }
    if (unverified) printf "WARNING: %d new-on run(s) NOT verified (the funds-aware claim did not send every payout, or held some): their figures are not the check'"'"'s cost\n", unverified
    if (("new-on" in seen) && ("new-off" in seen))
      printf "service CPU per payout, median new-on / median new-off: %.3f (%+.1f %%)\n", median(svc["new-on"]) / median(svc["new-off"]), (median(svc["new-on"]) / median(svc["new-off"]) - 1) * 100
  }' "$TSV" | tee "$OUT/summary.txt"
echo
say "rows for docs/BENCHMARKS.md (sides in the order ${SIDES[*]}; failed runs as '-')"
awk -F'\t' -v sides="${SIDES[*]}" '
  NR == 1 { next }
  { key = $1 SUBSEP $2; last = $1
    if ($12 ~ /FAILED/) { $7 = $8 = $10 = $11 = "-" }
    svc[key] = $7; pgc[key] = $8; e2e[key] = $10; raw[key] = $11; ld[key] = $4
    if ($2 == "new-on") hold[$1] = $12 }
  function cells(arr, r,   out, i) { out = ""; for (i = 1; i <= ns; i++) out = out (i > 1 ? " / " : "") ((r SUBSEP s[i]) in arr ? arr[r SUBSEP s[i]] : "-"); return out }
  END { ns = split(sides, s, " ")
    for (r = 1; r <= last; r++)
      printf "| %d | %s | %s | %s | %s | %s | %s |\n", r, cells(svc, r), cells(pgc, r), cells(e2e, r), cells(raw, r), cells(ld, r), (r in hold ? hold[r] : "-") }' "$TSV" | tee -a "$OUT/summary.txt"
say "done in $(awk -v s=$(($(date +%s) - started)) 'BEGIN { printf "%.1f", s / 60 }') min; logs in $OUT"
