#!/usr/bin/env bash
# `npm run bench`: the pipeline benchmark (bench/pipeline.bench.ts) on this machine, with the
# same set-up as the tests (dependencies, Postgres, Kafka). Every measure runs BENCH_RUNS times
# (3) in rounds of the whole sequence; the table (median, spread, each run, goal) is printed and,
# after a complete run, written to docs/BENCHMARKS.md (BENCH_RECORD=0: print only). Quick check:
#   BENCH_RUNS=1 BENCH_INTAKE_N=2000 BENCH_E2E_N=1000 BENCH_STEADY_SECONDS=3 BENCH_RECORD=0 npm run bench
# BENCH_PROFILE=1: profile the first round's end-to-end service instead (CPU profile + per-payout
# counts; see bench/profile-run.ts); the report goes to .run/bench-profile/<run>/report.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_deps
ensure_postgres
ensure_kafka
build
node dist/bench/pipeline.bench.js
prettier --write --log-level warn docs/BENCHMARKS.md
