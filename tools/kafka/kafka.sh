#!/usr/bin/env bash
# Single-node Apache Kafka (KRaft) for development, tests and the demo. No Docker needed.
#
#   tools/kafka/kafka.sh start|stop|status|restart
#
# Environment (all optional):
#   KAFKA_PORT            client port, advertised as 127.0.0.1   (default 9092)
#   KAFKA_CONTROLLER_PORT KRaft controller port                  (default KAFKA_PORT+1)
#   KAFKA_DATA_DIR        logs, data and pid file                (default <repo>/.run/kafka-<port>)
#   KAFKA_START_TIMEOUT   seconds to wait for the broker          (default 90)
#   KAFKA_HEAP_OPTS       JVM heap                               (default -Xms256m -Xmx768m)
#   KAFKA_JVM_OPTS        more JVM options, e.g. -XX:TieredStopAtLevel=1 (default none)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
port=${KAFKA_PORT:-9092}
cport=${KAFKA_CONTROLLER_PORT:-$((port + 1))}
data=${KAFKA_DATA_DIR:-$repo/.run/kafka-$port}
timeout=${KAFKA_START_TIMEOUT:-90}
heap=${KAFKA_HEAP_OPTS:--Xms256m -Xmx768m}
jvm_opts=${KAFKA_JVM_OPTS:-}
libs=${KAFKA_LIBS_DIR:-$here/libs}
log="$data/broker.log"
pidfile="$data/broker.pid"

say() { printf '[kafka:%s] %s\n' "$port" "$*"; }
die() { printf '[kafka:%s] ERROR: %s\n' "$port" "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running_pid() {
  [ -f "$pidfile" ] || return 1
  local pid
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null && { echo "$pid"; return 0; }
  return 1
}

fetch_jars() {
  if [ -f "$libs/.complete" ]; then return 0; fi
  command -v mvn >/dev/null || die "Maven (mvn) is needed to fetch the Kafka jars; install it (apt-get install maven)"
  command -v java >/dev/null || die "Java 17+ is needed to run Kafka; install it (apt-get install openjdk-17-jre-headless)"
  say "fetching Kafka broker jars from Maven Central (first run only)"
  rm -rf "$libs"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$libs" -DincludeScope=runtime \
    || die "mvn dependency:copy-dependencies failed"
  touch "$libs/.complete"
}

write_config() {
  mkdir -p "$data/logs"
  cat > "$data/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$data/logs
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
log.retention.hours=24
PROPS
  cat > "$data/log4j.properties" <<PROPS
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.request.logger=WARN
PROPS
}

start() {
  if pid=$(running_pid); then say "already running (pid $pid)"; return 0; fi
  if port_open "$port"; then say "something already listens on 127.0.0.1:$port; using it"; return 0; fi
  fetch_jars
  write_config
  local cp="$libs/*"
  if [ ! -f "$data/logs/meta.properties" ]; then
    # A cluster id as `StorageTool random-uuid` makes one (16 random bytes, URL-safe base64, no
    # padding, not starting with "-"), without a JVM start of its own: about 2 s of every fresh
    # broker, and the tests start several private ones.
    local id=-
    while [ "${id:0:1}" = - ]; do id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '='); done
    java -cp "$cp" -Dlog4j.configuration="file:$data/log4j.properties" kafka.tools.StorageTool format \
      -t "$id" -c "$data/server.properties" --ignore-formatted >>"$log" 2>&1 \
      || die "storage format failed; see $log"
  fi
  say "starting (log: $log)"
  # shellcheck disable=SC2086
  nohup java $heap $jvm_opts -XX:+UseG1GC -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$data/log4j.properties" \
    -cp "$cp" kafka.Kafka "$data/server.properties" >>"$log" 2>&1 &
  echo $! > "$pidfile"
  # Polled every 0.2 s, counted in tenths of a second: tests that restart a broker wait for it.
  local waited=0
  until grep -q 'Kafka Server started' "$log" 2>/dev/null && port_open "$port"; do
    if ! running_pid >/dev/null; then die "broker exited during start; see $log"; fi
    if [ "$waited" -ge $((timeout * 10)) ]; then die "broker did not answer on 127.0.0.1:$port within ${timeout}s; see $log"; fi
    sleep 0.2; waited=$((waited + 2))
  done
  say "ready on 127.0.0.1:$port after $((waited / 10)).$((waited % 10))s"
}

stop() {
  local pid
  if ! pid=$(running_pid); then say "not running"; rm -f "$pidfile"; return 0; fi
  kill "$pid"
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then say "did not stop in 30s; killing"; kill -9 "$pid" || true; fi
  rm -f "$pidfile"
  say "stopped"
}

status() {
  if pid=$(running_pid); then say "running (pid $pid)"; return 0; fi
  if port_open "$port"; then say "port open, not started by this script"; return 0; fi
  say "not running"; return 3
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart) stop; start ;;
  fetch) fetch_jars ;;
  *) echo "usage: $0 start|stop|status|restart|fetch" >&2; exit 2 ;;
esac
