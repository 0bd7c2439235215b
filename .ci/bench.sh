#!/bin/sh
# The figures of the performance table, measured side by side with jq on
# generated sessions of growing Anthropic requests. Installs nothing.
#
#   .ci/bench.sh [--markdown] [RUNS] [SIZES]   (default 5 runs; sizes "75 150 300 600")
#
# For each session (W75 ... W600: that many requests, 4 to 320 MB) each
# command runs RUNS times, each time in a pair with jq: `jq -c
# '.messages|length'` on the same file, then the command, so that both
# meet the same load on a shared machine; each pair gives a ratio, and the
# table has the median of the command's wall time, CPU time (user +
# system) and peak RSS, and the median, minimum and maximum of its ratios
# to jq. Times come from .ci/timeit.go: wall time from the monotonic clock,
# CPU time from the kernel's accounting in microseconds (/usr/bin/time
# gives both in hundredths of a second, which made the growth exponents
# meaningless on the small sessions). Then the growth exponent of each
# command: the slope of log(time) against log(file size) over the
# sessions (1 is linear in bytes), in wall and in CPU time. The viewer is
# loaded in a tmux pane (when tmux and /usr/bin/time are there) and its
# peak RSS read once it shows every request. Last, the repository's Go
# benchmarks of the table: the tokenizer vocabulary, opening a large
# segment in the viewer and ClassifyManyStray. The machine, its load
# before and after, and the date head and end the output: on a shared
# machine the load says how far to trust a figure. With --markdown the
# output is the README's block instead: the line that names the machine,
# its load and the date, then the figures in a fenced block.
set -eu

markdown=0
if [ "${1:-}" = "--markdown" ]; then
	markdown=1
	shift
fi
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

if ! command -v jq >/dev/null 2>&1; then
	echo "bench.sh: jq is needed" >&2
	exit 3
fi

cd "$root"
go build -o "$work/wirelens" .
go build -o "$work/timeit" .ci/timeit.go
bin="$work/wirelens"

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
mem=$(awk '/MemTotal/ { printf "%.0f GB", $2/1048576 }' /proc/meminfo 2>/dev/null || true)
date=$(date -u '+%Y-%m-%d %H:%M UTC')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
out="$work/body"
: > "$out"

# median: the median of the numbers on standard input.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# spread: "median (min-max)" of the numbers on standard input.
spread() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }

# once NAME CMD...: run CMD once; append its wall and CPU seconds and peak
# RSS (KB) to $work/NAME.runs.
once() {
	o_name=$1
	shift
	"$work/timeit" "$work/time" "$@" 2> "$work/err" || {
		echo "bench.sh: $* failed:" >&2
		cat "$work/err" >&2
		exit 1
	}
	cat "$work/time" >> "$work/$o_name.runs"
}

# summarise NAME: the medians of $work/NAME.runs into $work/NAME.
summarise() {
	w=$(cut -d' ' -f1 "$work/$1.runs" | median)
	c=$(cut -d' ' -f2 "$work/$1.runs" | median)
	m=$(cut -d' ' -f3 "$work/$1.runs" | median)
	echo "$w $c $m" > "$work/$1"
}

# pairs SIZE NAME CMD...: $runs pairs of jq on FILE then CMD, each pair's
# ratios (wall, CPU) appended to $work/NAME-SIZE.ratios.
pairs() {
	p_key=$2-$1
	p_jq=jq-$1
	shift 2
	: > "$work/$p_key.runs"
	: > "$work/$p_key.ratios"
	p_i=0
	while [ "$p_i" -lt "$runs" ]; do
		once "$p_jq" jq -c '.messages|length' "$f"
		once "$p_key" "$@"
		jw=$(tail -1 "$work/$p_jq.runs" | cut -d' ' -f1)
		jc=$(tail -1 "$work/$p_jq.runs" | cut -d' ' -f2)
		tail -1 "$work/$p_key.runs" | awk -v jw="$jw" -v jc="$jc" '{ printf "%.6f %.6f\n", $1 / jw, (jc > 0 ? $2 / jc : 0) }' >> "$work/$p_key.ratios"
		p_i=$((p_i + 1))
	done
	summarise "$p_key"
}

# viewer SIZE: load the session in the viewer, in a tmux pane, $runs times;
# record the median peak RSS in $work/view-SIZE (nothing without tmux).
viewer() {
	command -v tmux > /dev/null 2>&1 && [ -x /usr/bin/time ] || return 0
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
	: > "$work/jq-$n.runs"
	pairs "$n" cache "$bin" cache --json "$f"
	pairs "$n" check "$bin" check --json "$f"
	pairs "$n" inspect-json "$bin" inspect --json "$f"
	pairs "$n" inspect-text "$bin" inspect "$f"
	summarise "jq-$n"
	viewer "$f" "$n"
	rm -f "$f"
done

{
	echo "runs: $runs pairs of jq and the command a figure; times and RSS medians, ratios to jq median (min-max) over the pairs"
	printf '%-14s %6s %9s %9s %-19s %-19s %9s\n' "command" "size" "wall s" "cpu s" "wall/jq" "cpu/jq" "peak RSS"
	for n in $sizes; do
		read -r jw jc jm < "$work/jq-$n"
		mb=$(awk -v b="$(cat "$work/size-$n")" 'BEGIN { printf "%.0f MB", b / 1e6 }')
		awk -v n="W$n" -v w="$jw" -v c="$jc" -v m="$jm" 'BEGIN {
			printf "%-14s %6s %9.3f %9.3f %-19s %-19s %6d MB\n", "jq", n, w, c, "1", "1", m / 1024 }'
		for c in $cmds; do
			read -r w cc m < "$work/$c-$n"
			wr=$(cut -d' ' -f1 "$work/$c-$n.ratios" | spread)
			cr=$(cut -d' ' -f2 "$work/$c-$n.ratios" | spread)
			awk -v c="$c" -v n="W$n" -v w="$w" -v cc="$cc" -v m="$m" -v wr="$wr" -v cr="$cr" 'BEGIN {
				printf "%-14s %6s %9.3f %9.3f %-19s %-19s %6d MB\n", c, n, w, cc, wr, cr, m / 1024 }'
		done
		if [ -f "$work/view-$n" ]; then
			printf '%-14s %6s %9s %9s %-19s %-19s %6d MB\n' "viewer loaded" "W$n" "-" "-" "-" "-" $(($(cat "$work/view-$n") / 1024))
		fi
		echo "               ($mb)"
	done

	echo
	echo "growth exponent in bytes, wall and CPU time (1 = linear; jq for comparison):"
	line="  "
	for c in jq $cmds; do
		for k in 1 2; do
			for n in $sizes; do
				echo "$(cat "$work/size-$n") $(cut -d' ' -f$k "$work/$c-$n")"
			done | awk '$2 > 0 { x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; k++ }
				END { if (k > 1) printf "%.2f", (k * sxy - sx * sy) / (k * sxx - sx * sx); else printf "-" }' > "$work/slope-$k"
		done
		line="$line$c $(cat "$work/slope-1") / $(cat "$work/slope-2"), "
	done
	echo "${line%, }"
	if [ -f "$work/view-$(echo $sizes | cut -d' ' -f1)" ]; then
		for n in $sizes; do
			echo "$(cat "$work/size-$n") $(cat "$work/view-$n")"
		done | awk '$2 > 0 { x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; k++ }
			END { if (k > 1) printf "  %-14s %.2f (peak RSS)\n", "viewer", (k * sxy - sx * sy) / (k * sxx - sx * sx) }'
	fi
} >> "$out"

# The tokenizer vocabulary: built by a command that counts tokens (inspect),
# in the background from its start; never by one that counts none (check).
tiny=testdata/payloads/anthropic-messages.json
: > "$work/tiny-check.runs"
: > "$work/tiny-inspect.runs"
i=0
while [ "$i" -lt "$runs" ]; do
	once tiny-check "$bin" check --json "$tiny"
	once tiny-inspect "$bin" inspect --json "$tiny"
	i=$((i + 1))
done
summarise tiny-check
summarise tiny-inspect
read -r cw cc cm < "$work/tiny-check"
read -r iw ic im < "$work/tiny-inspect"
{
	echo
	awk -v cw="$cw" -v cc="$cc" -v cm="$cm" -v iw="$iw" -v ic="$ic" -v im="$im" 'BEGIN {
		printf "tokenizer vocabulary, on a one-request payload: check (builds none) %.3f s wall, %.3f s CPU, %d MB;\n", cw, cc, cm / 1024
		printf "  inspect (counts tokens) %.3f s wall, %.3f s CPU, %d MB: the vocabulary costs about %.0f ms CPU and %d MB\n",
			iw, ic, im / 1024, (ic - cc) * 1000, (im - cm) / 1024 }'
} >> "$out"

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
{
	echo
	echo "Go benchmarks (-count $runs, medians):"
	gobench ./ui OpenLargeSegment ns/op B/op
	gobench ./wire/classify ClassifyManyStray MB/s B/op
} >> "$out"
load1=$(cut -d' ' -f1-3 /proc/loadavg)

if [ "$markdown" = 1 ]; then
	# The README's block: what machine, its load, when; then the figures.
	echo "Its output on the $(nproc)-core development machine (${cpu:-unknown CPU}, $mem, shared; load average over 1, 5 and 15 minutes $load0 before the run, $load1 after), $date:"
	echo
	echo '```'
	cat "$out"
	echo '```'
else
	echo "machine: $(nproc) cores${cpu:+, $cpu}, $mem"
	echo "date:    $date"
	echo "load before: $load0"
	echo
	cat "$out"
	echo
	echo "load after: $load1"
fi
