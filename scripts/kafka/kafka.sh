#!/usr/bin/env bash
# A single-node Apache Kafka (KRaft) broker for development and tests, run from Maven Central
# jars: no Kafka distribution, no Docker. Needs Java 17+ and, for the first fetch, mvn.
#
#   kafka.sh fetch                      resolve the pinned jars into .cache/kafka/<version>/libs
#   kafka.sh up [--port P] [--controller-port C] [--dir D] [--timeout S] [--fresh] [--foreground]
#   kafka.sh down [--dir D] [--timeout S]
#   kafka.sh status [--dir D]
#   kafka.sh topics [--bootstrap HOST:PORT] [--partitions N]
#
# Defaults: port $KAFKA_PORT or 9092, controller port $KAFKA_CONTROLLER_PORT or port+1,
# dir $KAFKA_DIR or <repo>/var/kafka. The version is pinned in pom.xml next to this script
# (KAFKA_VERSION and KAFKA_LOG4J_VERSION override it, for trying another release).
# KAFKA_HEAP_OPTS (default "-Xms256m -Xmx512m") and KAFKA_JVM_OPTS tune the JVM.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
POM="$HERE/pom.xml"

pom_property() {
    sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$POM" | head -n 1
}

KAFKA_VERSION="${KAFKA_VERSION:-$(pom_property kafka.version)}"
LOG4J_VERSION="${KAFKA_LOG4J_VERSION:-$(pom_property log4j.version)}"
LIBS="$REPO/.cache/kafka/$KAFKA_VERSION/libs"
READY_LINE="Kafka Server started"

die() {
    echo "kafka.sh: $*" >&2
    exit 1
}

say() {
    echo "kafka.sh: $*" >&2
}

need_java() {
    command -v java >/dev/null 2>&1 ||
        die "java not found on PATH; Kafka $KAFKA_VERSION needs Java 17 or newer" \
            "(Debian: apt-get install openjdk-17-jdk-headless)"
    local major
    major="$(java -XshowSettings:properties -version 2>&1 |
        sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')"
    [[ -n "$major" && "$major" -ge 17 ]] ||
        die "java on PATH is version '${major:-unknown}'; Kafka $KAFKA_VERSION needs 17 or newer"
}

need_mvn() {
    command -v mvn >/dev/null 2>&1 ||
        die "mvn not found on PATH; it is needed once to fetch the Kafka jars" \
            "(Debian: apt-get install maven)"
}

jars_complete() {
    [[ -f "$LIBS/.complete" && -f "$LIBS/kafka_2.13-$KAFKA_VERSION.jar" ]]
}

cmd_fetch() {
    if jars_complete; then
        say "jars for Kafka $KAFKA_VERSION already in ${LIBS#"$REPO"/}"
        return 0
    fi
    need_java
    need_mvn
    local tmp="$LIBS.tmp.$$" start=$SECONDS
    rm -rf "$tmp"
    mkdir -p "$(dirname "$LIBS")"
    say "resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION and dependencies with mvn"
    if ! mvn -B -q -ntp -Dstyle.color=never -f "$POM" dependency:copy-dependencies \
        -Dkafka.version="$KAFKA_VERSION" -Dlog4j.version="$LOG4J_VERSION" \
        -Dkafka.libs.dir="$tmp" >&2; then
        rm -rf "$tmp"
        die "mvn could not resolve the Kafka $KAFKA_VERSION jars (see the output above)"
    fi
    [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || die "mvn finished but kafka_2.13 is missing"
    echo "$KAFKA_VERSION" >"$tmp/.complete"
    rm -rf "$LIBS"
    mv "$tmp" "$LIBS"
    say "fetched $(find "$LIBS" -name '*.jar' | wc -l) jars in $((SECONDS - start)) s"
}

# Parsed options (shared by the subcommands).
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-}"
DIR="${KAFKA_DIR:-$REPO/var/kafka}"
TIMEOUT=90
FRESH=0
FOREGROUND=0
BOOTSTRAP=""
PARTITIONS=6

parse_options() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
        --port) PORT="$2"; shift 2 ;;
        --controller-port) CONTROLLER_PORT="$2"; shift 2 ;;
        --dir) DIR="$2"; shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --bootstrap) BOOTSTRAP="$2"; shift 2 ;;
        --partitions) PARTITIONS="$2"; shift 2 ;;
        --fresh) FRESH=1; shift ;;
        --foreground) FOREGROUND=1; shift ;;
        *) die "unknown option '$1' (see the header of $0)" ;;
        esac
    done
    [[ "$PORT" =~ ^[0-9]+$ ]] || die "--port must be a number, got '$PORT'"
    CONTROLLER_PORT="${CONTROLLER_PORT:-$((PORT + 1))}"
    [[ "$CONTROLLER_PORT" =~ ^[0-9]+$ ]] || die "--controller-port must be a number"
    [[ "$PORT" != "$CONTROLLER_PORT" ]] || die "--port and --controller-port must differ"
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
}

# The pid in $DIR/broker.pid, if that process is alive and is a Kafka broker.
running_pid() {
    local pid
    [[ -f "$DIR/broker.pid" ]] || return 1
    pid="$(cat "$DIR/broker.pid")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka' || return 1
    echo "$pid"
}

render_config() {
    local data="$DIR/data"
    sed -e "s|@PORT@|$PORT|g" -e "s|@CONTROLLER_PORT@|$CONTROLLER_PORT|g" \
        -e "s|@DATA_DIR@|$data|g" "$HERE/server.properties.in" >"$DIR/server.properties"
}

# What `StorageTool random-uuid` prints (16 random bytes, URL-safe base64 without padding, not
# starting with "-"), without paying for a second JVM start.
new_cluster_id() {
    local id="-"
    while [[ "$id" == -* ]]; do
        id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    done
    echo "$id"
}

format_storage() {
    if [[ $FRESH -eq 1 ]]; then
        rm -rf "$DIR/data"
    fi
    if [[ -f "$DIR/data/meta.properties" ]]; then
        return 0
    fi
    # A short-lived JVM: C1 only and the serial collector start fastest.
    java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
        -Dlog4j2.configurationFile="$HERE/log4j2.properties" -cp "$LIBS/*" \
        kafka.tools.StorageTool format -t "$(new_cluster_id)" -c "$DIR/server.properties" >&2 ||
        die "formatting the KRaft store in $DIR/data failed"
}

java_command() {
    # KAFKA_HEAP_OPTS replaces the small default heap, as in Kafka's own scripts;
    # KAFKA_JVM_OPTS adds flags (word-split, no quoting).
    # shellcheck disable=SC2206
    local heap=(${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}) extra=(${KAFKA_JVM_OPTS:-})
    JAVA_CMD=(java "${heap[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20
        -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true "${extra[@]}"
        -Dlog4j2.configurationFile="$HERE/log4j2.properties"
        -cp "$LIBS/*" kafka.Kafka "$DIR/server.properties")
}

cmd_up() {
    parse_options "$@"
    local pid
    if pid="$(running_pid)"; then
        say "already running (pid $pid): $(status_line)"
        return 0
    fi
    cmd_fetch
    need_java
    render_config
    format_storage
    java_command
    if [[ $FOREGROUND -eq 1 ]]; then
        echo $$ >"$DIR/broker.pid"
        exec "${JAVA_CMD[@]}"
    fi
    local log="$DIR/broker.log" start=$SECONDS
    : >"$log"
    setsid nohup "${JAVA_CMD[@]}" >>"$log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$DIR/broker.pid"
    while ! grep -q "$READY_LINE" "$log"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 40 "$log" >&2
            rm -f "$DIR/broker.pid"
            die "the broker exited before it was ready (log: $log)"
        fi
        if ((SECONDS - start >= TIMEOUT)); then
            tail -n 40 "$log" >&2
            stop_pid "$pid" 20
            die "the broker was not ready after $TIMEOUT s (log: $log)"
        fi
        sleep 0.2
    done
    say "Kafka $KAFKA_VERSION started in $((SECONDS - start)) s (pid $pid): $(status_line)"
}

status_line() {
    echo "bootstrap 127.0.0.1:$(sed -n 's|^listeners=PLAINTEXT://127.0.0.1:\([0-9]*\),.*|\1|p' \
        "$DIR/server.properties"), dir $DIR"
}

# SIGTERM, wait for a clean exit, SIGKILL after $2 seconds.
stop_pid() {
    local pid="$1" wait_s="$2" waited=0
    kill -TERM "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null; do
        if ((waited >= wait_s * 5)); then
            say "pid $pid still alive after $wait_s s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.2
        waited=$((waited + 1))
    done
}

cmd_down() {
    TIMEOUT=30
    parse_options "$@"
    local pid
    if ! pid="$(running_pid)"; then
        rm -f "$DIR/broker.pid"
        say "not running (dir $DIR)"
        return 0
    fi
    stop_pid "$pid" "$TIMEOUT"
    rm -f "$DIR/broker.pid"
    say "stopped (pid $pid)"
}

cmd_status() {
    parse_options "$@"
    local pid
    if pid="$(running_pid)"; then
        echo "running (pid $pid): $(status_line)"
    else
        echo "not running (dir $DIR)"
        return 3
    fi
}

cmd_topics() {
    parse_options "$@"
    local python="$REPO/.venv/bin/python"
    [[ -x "$python" ]] || python="$(command -v python3)" || die "python3 not found"
    cd "$REPO"
    exec "$python" -m tests.integration.kafka_broker topics \
        --bootstrap "${BOOTSTRAP:-127.0.0.1:$PORT}" --partitions "$PARTITIONS"
}

main() {
    local cmd="${1:-}"
    shift || true
    case "$cmd" in
    fetch) cmd_fetch ;;
    up) cmd_up "$@" ;;
    down) cmd_down "$@" ;;
    status) cmd_status "$@" ;;
    topics) cmd_topics "$@" ;;
    *) die "usage: kafka.sh fetch | up [options] | down [--dir D] | status | topics (got '$cmd')" ;;
    esac
}

main "$@"
