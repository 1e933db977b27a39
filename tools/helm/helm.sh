#!/usr/bin/env bash
# Helm's template engine without the helm binary (which no registry these machines reach carries):
# helm-java from Maven Central, Helm's own Go library built as a native library. See
# docs/adr/0014-kubernetes-packaging.md.
#
#   tools/helm/helm.sh fetch                      fetch the jars into tools/helm/libs (first run only)
#   tools/helm/helm.sh render <chart> <outDir> <release> <namespace> <kubeVersion> <case>...
#                                                 render value sets (tools/helm/Render.java says how)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
libs=${HELM_JAVA_LIBS_DIR:-$here/libs}

say() { printf '[helm] %s\n' "$*"; }
die() { printf '[helm] ERROR: %s\n' "$*" >&2; exit 1; }

fetch_jars() {
  if [ -f "$libs/.complete" ]; then return 0; fi
  command -v mvn >/dev/null || die "Maven (mvn) is needed to fetch helm-java; install it (apt-get install maven)"
  command -v java >/dev/null || die "Java 17+ is needed to run helm-java; install it (apt-get install openjdk-17-jre-headless)"
  [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || die "helm-java's native library is fetched for linux-amd64 only (tools/helm/pom.xml)"
  say "fetching helm-java (Helm's Go library, native linux-amd64) from Maven Central (first run only)"
  rm -rf "$libs"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$libs" -DincludeScope=runtime \
    || die "mvn dependency:copy-dependencies failed"
  touch "$libs/.complete"
}

case "${1:-}" in
  fetch) fetch_jars ;;
  render)
    shift
    fetch_jars
    # Java's single-file launcher compiles Render.java in memory (about a second).
    exec java -cp "$libs/*" "$here/Render.java" "$@"
    ;;
  *) die "usage: $0 fetch | render <chart> <outDir> <release> <namespace> <kubeVersion> <case>..." ;;
esac
