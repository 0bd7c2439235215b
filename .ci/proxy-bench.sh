#!/bin/sh
# What the recording proxy adds to an exchange, against a local upstream:
# time to first and to last byte (median and 99th percentile) and
# throughput, directly and through the proxy, at 1 and at 32 connections,
# and at 32 with an answer paced as a model streams its tokens
# (BenchmarkProxyLineRate in wire/capture: the two sides alternate in
# rounds of the same run). Installs nothing.
#
#   .ci/proxy-bench.sh [RUNS] [REQUESTS]   (default 5 runs of 2000 requests each way)
#
# Each run measures, one after the other: the built binary's `wirelens
# proxy` (a process of its own, recording to a file); the floor, a net/http
# proxy of 30 lines that records nothing, also in a process of its own
# (wire/capture's test binary with WIRELENS_FLOOR_PROXY=1: floor_test.go),
# what any net/http proxy in a process of its own costs on this machine;
# the relay, a TCP relay that passes the bytes and reads none of them
# (WIRELENS_FLOOR_PROXY=relay), what a hop through another process costs
# whatever that process does; and the package's proxy inside the
# benchmark's process. The figures are the medians over the runs, with
# their minimum and maximum; the binary against the floor is taken within
# each run, then the median of that. The machine, its load before and
# after, and the date head and end the output: on a shared machine the
# load says how far to trust a figure.
set -eu

runs=${1:-5}
n=${2:-2000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

cd "$root"
go build -o "$work/wirelens" .
go test -c -o "$work/capture.test" ./wire/capture

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
echo "machine: $(nproc) cores${cpu:+, $cpu}, $(awk '/MemTotal/ { printf "%.0f GB", $2/1048576 }' /proc/meminfo 2>/dev/null)"
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: $runs of $n requests each way, medians (min-max)"

: > "$work/all"
i=0
while [ "$i" -lt "$runs" ]; do
	for mode in binary floor relay package; do
		floor=""
		case $mode in
		binary) bin="$work/wirelens" ;;
		floor) bin="$work/capture.test" floor=1 ;;
		relay) bin="$work/capture.test" floor=relay ;;
		*) bin="" ;;
		esac
		# The floor's process inherits WIRELENS_FLOOR_PROXY from the benchmark's.
		(cd wire/capture && WIRELENS_PROXY_BIN="$bin" WIRELENS_FLOOR_PROXY="$floor" "$work/capture.test" -test.run '^$' \
			-test.bench '^BenchmarkProxyLineRate$' -test.benchtime "${n}x" -test.count 1) > "$work/out" 2>&1 || {
			echo "proxy-bench.sh: the benchmark failed:" >&2
			cat "$work/out" >&2
			exit 1
		}
		# One line a figure: mode, case, metric, value, run.
		awk -v mode="$mode" -v run="$i" '/^BenchmarkProxyLineRate\// {
			name = $1; sub(/^BenchmarkProxyLineRate\//, "", name); sub(/-[0-9]+$/, "", name)
			for (k = 3; k < NF; k += 2) print mode, name, $(k + 1), $k, run }' "$work/out" >> "$work/all"
	done
	i=$((i + 1))
done

# The binary against the floor, within each run: its added ttlb p50 less
# the floor's, and its fraction of direct throughput over the floor's.
awk '$1 == "binary" || $1 == "floor" { v[$1, $2, $3, $5] = $4; k[$2 SUBSEP $5] = 1 }
	END { for (ck in k) { split(ck, p, SUBSEP); c = p[1]; r = p[2]
		if (("binary", c, "added-ttlb-p50-µs", r) in v && ("floor", c, "added-ttlb-p50-µs", r) in v)
			print "vs-floor", c, "added-ttlb-p50-µs", v["binary", c, "added-ttlb-p50-µs", r] - v["floor", c, "added-ttlb-p50-µs", r], r
		if (v["floor", c, "throughput-ratio", r] > 0)
			print "vs-floor", c, "throughput-ratio", v["binary", c, "throughput-ratio", r] / v["floor", c, "throughput-ratio", r], r } }' \
	"$work/all" >> "$work/all"

# stat MODE CASE METRIC: "median (min-max)" of that figure over the runs.
stat() {
	awk -v m="$1" -v c="$2" -v u="$3" '$1 == m && $2 == c && $3 == u { print $4 }' "$work/all" | sort -g |
		awk '{ v[NR] = $1 } END {
			if (NR == 0) { print "-"; exit }
			med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			f = (v[NR] < 10 && v[1] > -10) ? "%.2f (%.2f-%.2f)" : "%.0f (%.0f-%.0f)"
			if (v[1] < 0) sub(/-%/, " to %", f) # a range with a negative end
			printf f, med, v[1], v[NR] }'
}

for mode in binary floor relay package; do
	echo
	case $mode in
	binary) echo "wirelens proxy (the built binary, its own process):" ;;
	floor) echo "the floor: a net/http proxy of 30 lines that records nothing (its own process):" ;;
	relay) echo "the relay: a TCP relay that reads nothing, no HTTP (its own process):" ;;
	*) echo "the package's proxy (in the benchmark's process):" ;;
	esac
	printf '%-11s %-7s %-22s %-22s %-22s %-22s %-20s\n' case side "ttfb p50 µs" "ttfb p99 µs" "ttlb p50 µs" "ttlb p99 µs" "req/s"
	for c in c=1 c=32 c=32-paced; do
		for side in direct proxy; do
			printf '%-11s %-7s %-22s %-22s %-22s %-22s %-20s\n' "$c" "$side" \
				"$(stat $mode $c $side-ttfb-p50-µs)" "$(stat $mode $c $side-ttfb-p99-µs)" \
				"$(stat $mode $c $side-ttlb-p50-µs)" "$(stat $mode $c $side-ttlb-p99-µs)" "$(stat $mode $c $side-req/s)"
		done
		printf '%-11s added ttlb p50 %s µs; throughput %s of direct\n' "$c" \
			"$(stat $mode $c added-ttlb-p50-µs)" "$(stat $mode $c throughput-ratio)"
		if [ "$mode" != package ]; then
			printf '%-11s the proxy process'"'"'s own CPU time: %s µs an exchange\n' "$c" "$(stat $mode $c proxy-cpu-µs/req)"
		fi
	done
done
echo
echo "wirelens proxy against the floor (both in a process of their own; within each run):"
for c in c=1 c=32 c=32-paced; do
	printf '%-11s added ttlb p50 less the floor'"'"'s: %s µs; throughput %s of the floor'"'"'s\n' "$c" \
		"$(stat vs-floor $c added-ttlb-p50-µs)" "$(stat vs-floor $c throughput-ratio)"
done
echo
echo "goals (issue 27): under +200 µs at the median, at least 0.9 of direct throughput"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
