#!/usr/bin/env bash
# `npm run bench`: the pipeline benchmark (bench/pipeline.bench.ts) on this machine, with the
# same set-up as the tests (dependencies, Postgres, Kafka). Figures go to docs/BENCHMARKS.md.
# BENCH_PROFILE=1: profile the end-to-end phase instead (CPU profile + per-payout counts; see
# bench/profile-run.ts); the report goes to .run/bench-profile/<run>/report.md.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_deps
ensure_postgres
ensure_kafka
build
node dist/bench/pipeline.bench.js
prettier --write --log-level warn docs/BENCHMARKS.md
