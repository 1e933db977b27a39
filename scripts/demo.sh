#!/usr/bin/env bash
# `npm run demo`: the whole stack on this machine. Installs what is missing, starts Kafka, checks
# PostgreSQL and migrates, starts the provider sandbox and the payout service, waits until the
# service is ready, then runs the demo scenario (scripts/demo-scenario) if present.
#
#   npm run demo              keeps the stack running until Ctrl-C
#   npm run demo -- --once    stops everything after the scenario (CI, scripted use)
#   DEMO_ROLES=split npm run demo
#                             the service's roles in two processes of the same code (SERVICE_ROLES):
#                             intake,relay,queries,webhooks on :HTTP_PORT, executor,reconciler on :HTTP_PORT+1
#   DEMO_ROLES="intake,relay queries executor,reconciler" npm run demo
#                             any split: one process per word, on :HTTP_PORT, :HTTP_PORT+1, ...
# The `webhooks` role listens on :WEBHOOKS_PORT (3900 here) and the sandbox sends its webhooks there
# (v2; DEMO_WEBHOOK_VERSION=v1 for the form-encoded ones); give that role to one process only.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

once=0
for a in "$@"; do [ "$a" = "--once" ] && once=1; done
[ -t 0 ] || once=1   # no terminal to press Ctrl-C in: do not hang

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/payouts}
export HTTP_PORT=${HTTP_PORT:-3000}
export SANDBOX_PORT=${SANDBOX_PORT:-8090}
export LOG_LEVEL=${LOG_LEVEL:-info}
# Check unclear payouts sooner than production would, so the demo shows them resolving.
export RECONCILE_SCHEDULE=${RECONCILE_SCHEDULE:-3s,5s,10s,30s,1m,2m,5m,10m,30m,1h}
# The provider's webhooks (ADR 0013): the service listens here, the sandbox posts here.
export WEBHOOKS_PORT=${WEBHOOKS_PORT:-3900}
export PROVIDER_ACCOUNT_ID=${PROVIDER_ACCOUNT_ID:-default}
# Approval before sending (issue 30): one rule on the default account. A payout of 10,000.00 or more
# waits (AWAITING_APPROVAL) until a person approves it; the scenario shows one, approved by demo-approver.
export APPROVAL_POLICIES=${APPROVAL_POLICIES:-'[{"accountId":"default","rules":[{"rule":"amount_at_least","amount":"10000.00"}]}]'}
# Hold for funds (issue 32, ADR 0027): a third account, `held`, whose sandbox merchant starts with
# Rs. 1,000; a payout that does not fit waits (HELD_FOR_FUNDS) until a balance reading shows room.
# The scenario funds it through the sandbox's control call and the payout is sent and paid.
export FUNDS_HOLD=${FUNDS_HOLD:-'[{"accountId":"held","threshold":"0","maxHold":"1h"}]'}
# The provider's balance is read every 10 s (60 s by default); its CREDIT_CONFIRMATION webhook on
# funding makes the account due at once.
export BALANCE_READ_INTERVAL_MS=${BALANCE_READ_INTERVAL_MS:-10000}

# One service process with SERVICE_ROLES as set (all roles by default), or one process per role set.
case "${DEMO_ROLES:-}" in
  "" | all) roles=("${SERVICE_ROLES:-intake,executor,reconciler,relay,queries,webhooks}") ;;
  split) roles=("intake,relay,queries,webhooks" "executor,reconciler") ;;
  *) read -r -a roles <<< "$DEMO_ROLES" ;;
esac
ports=()
logs=()
for i in "${!roles[@]}"; do
  ports+=($((HTTP_PORT + i)))
  if [ "$i" -eq 0 ]; then logs+=(.run/logs/service.log); else logs+=(".run/logs/service-$((i + 1)).log"); fi
done

ensure_deps
ensure_postgres
ensure_kafka
build
say "migrating the ledger database"
node dist/libs/database/src/cli/migrate.js run

# The operations API's operators: unless OPS_OPERATORS is set, two demo operators with tokens new
# every run (printed below); the service is given only their SHA-256 (docs/OPERATIONS.md).
if [ -z "${OPS_OPERATORS:-}" ]; then
  new_token() { node -e 'process.stdout.write(require("node:crypto").randomBytes(24).toString("base64url"))'; }
  DEMO_OPS_OPERATOR_TOKEN=$(new_token)
  DEMO_OPS_APPROVER_TOKEN=$(new_token)
  export DEMO_OPS_OPERATOR_TOKEN DEMO_OPS_APPROVER_TOKEN
  OPS_OPERATORS="demo-operator:operator:$(printf %s "$DEMO_OPS_OPERATOR_TOKEN" | node dist/scripts/ops-token.js --hash)"
  OPS_OPERATORS+=",demo-approver:approver:$(printf %s "$DEMO_OPS_APPROVER_TOKEN" | node dist/scripts/ops-token.js --hash)"
  export OPS_OPERATORS
fi

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

webhook_ports=()
case " ${roles[*]} " in *webhooks*) webhook_ports=("$WEBHOOKS_PORT") ;; esac
for port in "${ports[@]}" "$SANDBOX_PORT" "${webhook_ports[@]}"; do
  port_open 127.0.0.1 "$port" && fail "port $port is in use; stop what listens there or set HTTP_PORT / SANDBOX_PORT"
done

# A second provider account on the v2 API (issue 22): its own sandbox merchant and credentials,
# Transfers V2 for its standard, direct and batch transfers, Beneficiary V2, v2 webhooks.
DEMO_V2_ID=demo_v2_client_id
DEMO_V2_SECRET=demo_v2_client_secret
DEMO_HELD_ID=demo_held_client_id
DEMO_HELD_SECRET=demo_held_client_secret
v2_hook=""
held_hook=""
if [ "${#webhook_ports[@]}" -gt 0 ]; then
  export SANDBOX_WEBHOOK_URL="http://127.0.0.1:$WEBHOOKS_PORT/webhooks/${DEMO_WEBHOOK_VERSION:-v2}/$PROVIDER_ACCOUNT_ID"
  export SANDBOX_WEBHOOK_VERSION=${DEMO_WEBHOOK_VERSION:-v2}
  v2_hook=",\"webhookUrl\":\"http://127.0.0.1:$WEBHOOKS_PORT/webhooks/v2/v2\",\"webhookVersion\":\"v2\""
  held_hook=",\"webhookUrl\":\"http://127.0.0.1:$WEBHOOKS_PORT/webhooks/v1/held\",\"webhookVersion\":\"v1\""
  say "the sandbox sends its webhooks to $SANDBOX_WEBHOOK_URL (account v2: /webhooks/v2/v2, account held: /webhooks/v1/held)"
fi
# The held account's merchant (hold for funds): a small balance, v1 webhooks (CREDIT_CONFIRMATION on funding).
held_merchant="{\"clientId\":\"$DEMO_HELD_ID\",\"clientSecret\":\"$DEMO_HELD_SECRET\",\"initialBalance\":\"1000.00\"$held_hook}"
export SANDBOX_MERCHANTS=${SANDBOX_MERCHANTS:-"[{\"clientId\":\"$DEMO_V2_ID\",\"clientSecret\":\"$DEMO_V2_SECRET\"$v2_hook},$held_merchant]"}
export PROVIDER_ACCOUNTS=${PROVIDER_ACCOUNTS:-"[{\"accountId\":\"v2\",\"clientId\":\"$DEMO_V2_ID\",\"clientSecret\":\"$DEMO_V2_SECRET\",\"api\":\"v2\",\"webhookVersion\":\"v2\"},{\"accountId\":\"held\",\"clientId\":\"$DEMO_HELD_ID\",\"clientSecret\":\"$DEMO_HELD_SECRET\",\"api\":\"v1\",\"webhookVersion\":\"v1\"}]"}
export DEMO_HELD_CLIENT_ID=$DEMO_HELD_ID
# Traces without a collector: the service writes its spans as JSON lines, and the scenario prints
# one payout's trace from them. With an OTLP endpoint set, they go there instead.
if [ -z "${OTEL_EXPORTER_OTLP_ENDPOINT:-}${OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:-}" ]; then
  export OTEL_TRACES_EXPORTER=console OTEL_TRACES_FILE="$PWD/.run/logs/traces.jsonl"
  : > "$OTEL_TRACES_FILE"
fi
say "starting the provider sandbox on :$SANDBOX_PORT (log: .run/logs/sandbox.log)"
node dist/apps/provider-sandbox/src/main.js > .run/logs/sandbox.log 2>&1 &
pids+=($!)
# V8 flags as in the Dockerfile: apps/payout-service/src/node-flags.ts (a test keeps them in step).
SERVICE_NODE_FLAGS="--max-semi-space-size=16 --max-old-space-size=384"
for i in "${!roles[@]}"; do
  if [ -z "${roles[$i]}" ]; then
    say "starting the payout service on :${ports[$i]} (log: ${logs[$i]})"
    HTTP_PORT=${ports[$i]} node $SERVICE_NODE_FLAGS dist/apps/payout-service/src/main.js > "${logs[$i]}" 2>&1 &
  else
    say "starting the payout service with SERVICE_ROLES=${roles[$i]} on :${ports[$i]} (log: ${logs[$i]})"
    SERVICE_ROLES=${roles[$i]} HTTP_PORT=${ports[$i]} node $SERVICE_NODE_FLAGS dist/apps/payout-service/src/main.js > "${logs[$i]}" 2>&1 &
  fi
  pids+=($!)
done

all_ready() {
  for port in "${ports[@]}"; do curl -fsS "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1 || return 1; done
  port_open 127.0.0.1 "$SANDBOX_PORT"
}
for _ in $(seq 1 60); do
  all_ready && break
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "a process exited during start; see .run/logs/"; done
  sleep 1
done
for i in "${!ports[@]}"; do
  curl -fsS "http://127.0.0.1:${ports[$i]}/health/ready" >/dev/null || fail "the service on :${ports[$i]} did not become ready; see ${logs[$i]}"
done

say "stack is up"
printf '  %-22s %s\n' "payout service" "http://127.0.0.1:$HTTP_PORT" \
  "readiness" "http://127.0.0.1:$HTTP_PORT/health/ready" \
  "metrics" "http://127.0.0.1:$HTTP_PORT/metrics" \
  "operations API" "http://127.0.0.1:$HTTP_PORT/ops (OpenAPI: /ops/openapi.json)" \
  "web console" "http://127.0.0.1:$HTTP_PORT/console (sign in with an operator token)" \
  "provider sandbox" "http://127.0.0.1:$SANDBOX_PORT" \
  "provider accounts" "$PROVIDER_ACCOUNT_ID (v1 API), v2 (v2 API: Transfers V2, Beneficiary V2), held (v1 API, holds payouts for funds)" \
  "webhooks (public)" "${SANDBOX_WEBHOOK_URL:-off (no webhooks role)}" \
  "kafka" "127.0.0.1:${KAFKA_PORT:-9092}" \
  "postgres" "127.0.0.1:5432/payouts"
if [ "${#ports[@]}" -gt 1 ]; then
  for i in "${!ports[@]}"; do
    printf '  %-22s %s\n' "process $((i + 1))" "http://127.0.0.1:${ports[$i]} (SERVICE_ROLES=${roles[$i]})"
  done
fi
if [ -n "${DEMO_OPS_OPERATOR_TOKEN:-}" ]; then
  printf '  %-22s %s\n' "operator token" "$DEMO_OPS_OPERATOR_TOKEN (demo-operator: recheck, replay, propose)" \
    "approver token" "$DEMO_OPS_APPROVER_TOKEN (demo-approver: also approve or reject)"
fi
curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready"; echo

if [ -f dist/scripts/demo-scenario.js ]; then
  say "running the demo scenario: commands in, events out"
  node dist/scripts/demo-scenario.js
fi

if [ "$once" -eq 1 ]; then say "done (--once): stopping"; exit 0; fi
say "running; press Ctrl-C to stop"
wait
