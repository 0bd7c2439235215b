#!/bin/sh
# The figures of the performance table, measured side by side with jq on
# generated sessions of growing Anthropic requests. Installs nothing.
#
#   .ci/bench.sh [RUNS] [SIZES]     (default 5 runs; sizes "75 150 300 600")
#
# For each session (W75 ... W600: that many requests, 4 to 320 MB) every
# command runs RUNS times under /usr/bin/time -v; the medians are printed:
# wall time, CPU time (user + system) and peak RSS, and each time as a ratio
# to `jq -c '.messages|length'` on the same file in the same run. Then the
# growth exponent of each command: the slope of log(CPU time) against
# log(file size) over the sessions (1 is linear in bytes). The viewer is
# loaded in a tmux pane (when tmux is there) and its peak RSS read once it
# shows every request. Last, the repository's Go benchmarks of the table:
# the tokenizer vocabulary, opening a large segment in the viewer and
# ClassifyManyStray. The machine, its load before and after, and the date
# head and end the output: on a shared machine the load says how far to
# trust a figure.
set -eu

runs=${1:-5}
sizes=${2:-"75 150 300 600"}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
sock="$work/tmux.sock"
cleanup() {
	tmux -S "$sock" kill-server >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

for tool in jq /usr/bin/time; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench.sh: $tool is needed" >&2
		exit 3
	fi
done

cd "$root"
go build -o "$work/wirelens" .
bin="$work/wirelens"

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
echo "machine: $(nproc) cores${cpu:+, $cpu}, $(awk '/MemTotal/ { printf "%.0f GB", $2/1048576 }' /proc/meminfo 2>/dev/null)"
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: $runs a figure, medians"
echo

# median: the median of the numbers on standard input.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure NAME CMD...: run CMD $runs times; record its median wall, CPU and
# peak RSS (KB) in $work/NAME.
measure() {
	name=$1
	shift
	: > "$work/$name.runs"
	i=0
	while [ "$i" -lt "$runs" ]; do
		# Wall time from the clock in nanoseconds around the run, which
		# /usr/bin/time gives in hundredths of a second only.
		t0=$(date +%s%N)
		/usr/bin/time -v -o "$work/time" "$@" > /dev/null 2> "$work/err" || {
			echo "bench.sh: $* failed:" >&2
			cat "$work/err" >&2
			exit 1
		}
		t1=$(date +%s%N)
		awk -F': ' -v ns=$((t1 - t0)) '
			/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
			END { printf "%.3f %s %s\n", ns / 1e9, u + s, m }' "$work/time" >> "$work/$name.runs"
		i=$((i + 1))
	done
	w=$(cut -d' ' -f1 "$work/$name.runs" | median)
	c=$(cut -d' ' -f2 "$work/$name.runs" | median)
	m=$(cut -d' ' -f3 "$work/$name.runs" | median)
	echo "$w $c $m" > "$work/$name"
}

# viewer SIZE: load the session in the viewer, in a tmux pane, $runs times;
# record the median peak RSS in $work/view-SIZE (nothing without tmux).
viewer() {
	command -v tmux > /dev/null 2>&1 || return 0
	: > "$work/view.runs"
	i=0
	while [ "$i" -lt "$runs" ]; do
		rm -f "$work/view.rss"
		tmux -S "$sock" new-session -d -s view -x 160 -y 40 \
			"/usr/bin/time -f %M -o '$work/view.rss' '$bin' view '$1'"
		# Loaded: the header counts the requests and says no more "loading".
		k=0
		while [ "$k" -lt 1200 ]; do
			s=$(tmux -S "$sock" capture-pane -p -t view 2> /dev/null | head -1)
			case "$s" in
			*loading*) ;;
			*requests*) break ;;
			esac
			sleep 0.1
			k=$((k + 1))
		done
		sleep 0.5
		tmux -S "$sock" send-keys -t view q
		k=0
		while [ ! -s "$work/view.rss" ] && [ "$k" -lt 100 ]; do
			sleep 0.1
			k=$((k + 1))
		done
		cat "$work/view.rss" >> "$work/view.runs"
		tmux -S "$sock" kill-server > /dev/null 2>&1 || true
		i=$((i + 1))
	done
	median < "$work/view.runs" > "$work/view-$2"
}

cmds="cache check inspect-json inspect-text"
for n in $sizes; do
	f="$work/w$n.jsonl"
	"$bin" gen-session --requests "$n" > "$f"
	wc -c < "$f" > "$work/size-$n"
	measure "jq-$n" jq -c '.messages|length' "$f"
	measure "cache-$n" "$bin" cache --json "$f"
	measure "check-$n" "$bin" check --json "$f"
	measure "inspect-json-$n" "$bin" inspect --json "$f"
	measure "inspect-text-$n" "$bin" inspect "$f"
	viewer "$f" "$n"
	rm -f "$f"
done

printf '%-14s %6s %9s %9s %7s %7s %9s\n' "command" "size" "wall s" "cpu s" "wall/jq" "cpu/jq" "peak RSS"
for n in $sizes; do
	read -r jw jc jm < "$work/jq-$n"
	mb=$(awk -v b="$(cat "$work/size-$n")" 'BEGIN { printf "%.0f MB", b / 1e6 }')
	printf '%-14s %6s %9s %9s %7s %7s %7d MB\n' "jq" "W$n" "$jw" "$jc" "1" "1" $((jm / 1024))
	for c in $cmds; do
		read -r w cc m < "$work/$c-$n"
		awk -v c="$c" -v n="W$n" -v w="$w" -v cc="$cc" -v m="$m" -v jw="$jw" -v jc="$jc" 'BEGIN {
			printf "%-14s %6s %9.3f %9.3f %7.2f %7.2f %7d MB\n", c, n, w, cc, w / jw, cc / jc, m / 1024 }'
	done
	if [ -f "$work/view-$n" ]; then
		printf '%-14s %6s %9s %9s %7s %7s %7d MB\n' "viewer loaded" "W$n" "-" "-" "-" "-" $(($(cat "$work/view-$n") / 1024))
	fi
	echo "               ($mb)"
done

echo
echo "growth exponent of CPU time in bytes (1 = linear; jq for comparison):"
for c in jq $cmds; do
	for n in $sizes; do
		echo "$(cat "$work/size-$n") $(cut -d' ' -f2 "$work/$c-$n")"
	done | awk -v c="$c" '$2 > 0 { x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; k++ }
		END { if (k > 1) printf "  %-14s %.2f\n", c, (k * sxy - sx * sy) / (k * sxx - sx * sx) }'
done
if command -v tmux > /dev/null 2>&1; then
	for n in $sizes; do
		echo "$(cat "$work/size-$n") $(cat "$work/view-$n")"
	done | awk '$2 > 0 { x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; k++ }
		END { if (k > 1) printf "  %-14s %.2f (peak RSS)\n", "viewer", (k * sxy - sx * sy) / (k * sxx - sx * sx) }'
fi

# The tokenizer vocabulary: built by a command that counts tokens (inspect),
# in the background from its start; never by one that counts none (check).
tiny=testdata/payloads/anthropic-messages.json
measure tiny-check "$bin" check --json "$tiny"
measure tiny-inspect "$bin" inspect --json "$tiny"
read -r cw cc cm < "$work/tiny-check"
read -r iw ic im < "$work/tiny-inspect"
echo
awk -v cw="$cw" -v cc="$cc" -v cm="$cm" -v iw="$iw" -v ic="$ic" -v im="$im" 'BEGIN {
	printf "tokenizer vocabulary, on a one-request payload: check (builds none) %.3f s wall, %.3f s CPU, %d MB;\n", cw, cc, cm / 1024
	printf "  inspect (counts tokens) %.3f s wall, %.3f s CPU, %d MB: the vocabulary costs about %.0f ms CPU and %d MB\n",
		iw, ic, im / 1024, (ic - cc) * 1000, (im - cm) / 1024 }'

echo
echo "Go benchmarks (-count $runs, medians):"
# gobench PKG NAME UNIT...: the median of each unit's figure over the runs.
gobench() {
	pkg=$1 name=$2
	shift 2
	if ! grep -rqs "func Benchmark$name(" "$pkg"; then
		echo "  $name: not present"
		return 0
	fi
	go test "$pkg" -run '^$' -bench "^Benchmark$name\$" -benchmem -count "$runs" > "$work/bench" 2>&1 || {
		echo "  $name: failed"
		sed 's/^/    /' "$work/bench"
		return 0
	}
	line="  $name:"
	for unit in "$@"; do
		v=$(awk -v u="$unit" '/^Benchmark/ { for (k = 2; k <= NF; k++) if ($k == u) print $(k - 1) }' "$work/bench" | median)
		line="$line $v $unit"
	done
	echo "$line"
}
gobench ./ui OpenLargeSegment ns/op B/op
gobench ./wire/classify ClassifyManyStray MB/s B/op
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
