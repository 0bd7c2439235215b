#!/bin/sh
# check and cache over a folder of real transcripts, against jq, in paired
# runs. Installs nothing (needs go, jq, /usr/bin/time and perl for the monotonic clock).
#
#   .ci/bench-folder.sh [ROUNDS] [FILES]     (default 5 rounds, 1000 files)
#
# The folder is made by the hidden `wirelens gen-folder` from the Claude
# Code transcripts and Codex rollouts in testdata (line prefixes of 8 KB to
# 512 KB, every UUID and timestamp varied per file, laid out as
# ~/.claude/projects and ~/.codex/sessions are). Each round runs, one after
# the other: jq -c . over every file, check --json DIR, cache --json DIR,
# and both again with GOMAXPROCS=1, each timed by the monotonic clock; a
# ratio is taken within its round (the command against the round's jq, the
# two cores against the one), and the median of the rounds is printed with
# the least and the most. The machine and its load before and after head
# and end the output: on a shared machine the load says how far to trust a
# figure, and the paired ratios are what to compare.
set -eu

rounds=${1:-5}
files=${2:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

for tool in jq perl go /usr/bin/time; do
	if ! command -v "$tool" > /dev/null 2>&1; then
		echo "bench-folder.sh: $tool is needed" >&2
		exit 3
	fi
done

cd "$root"
go build -o "$work/wirelens" .
bin="$work/wirelens"
dir="$work/sessions"
made=$("$bin" gen-folder --files "$files" --from testdata "$dir")
find "$dir" -type f -name '*.jsonl' | sort > "$work/list"

cpu=$(grep -m1 'model name' /proc/cpuinfo 2> /dev/null | sed 's/.*: //' || true)
echo "machine: $(nproc) cores${cpu:+, $cpu}, $(awk '/MemTotal/ { printf "%.0f GB", $2/1048576 }' /proc/meminfo 2> /dev/null)"
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "folder:  $made"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "rounds: $rounds, medians (min-max)"
echo

now() { perl -MTime::HiRes=clock_gettime,CLOCK_MONOTONIC -e 'printf "%.0f\n", clock_gettime(CLOCK_MONOTONIC) * 1e9'; }

# timed NAME CMD...: run CMD once, append its wall time in seconds to
# $work/NAME. check exits 1 when it finds something: only 2 and above fail.
timed() {
	name=$1
	shift
	t0=$(now)
	rc=0
	/usr/bin/time -f '%U %S' -o "$work/cpu" "$@" > /dev/null 2> "$work/err" || rc=$?
	t1=$(now)
	if [ "$rc" -ge 2 ] || ! grep -q '^[0-9.]* [0-9.]*$' "$work/cpu"; then
		echo "bench-folder.sh: $* failed:" >&2
		head -5 "$work/err" "$work/cpu" >&2
		exit 1
	fi
	awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.4f\n", ns / 1e9 }' >> "$work/$name"
	tail -1 "$work/cpu" | awk '{ printf "%.2f\n", $1 + $2 }' >> "$work/$name.cpu"
}

i=0
while [ "$i" -lt "$rounds" ]; do
	timed jq xargs jq -c . < "$work/list"
	timed check "$bin" check --json "$dir"
	timed cache "$bin" cache --json "$dir"
	timed check1 env GOMAXPROCS=1 "$bin" check --json "$dir"
	timed cache1 env GOMAXPROCS=1 "$bin" cache --json "$dir"
	i=$((i + 1))
done

# stats: median, min and max of the numbers on standard input.
stats() {
	sort -g | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f (%.3f-%.3f)", m, v[1], v[NR] }'
}

# ratio A B: the per-round ratios A/B.
ratio() { paste "$work/$1" "$work/$2" | awk '{ printf "%.4f\n", $1 / $2 }'; }

printf '%-24s %-28s %s\n' "" "wall" "CPU (user + system)"
printf '%-24s %-28s %s\n' "jq -c . FILES, s" "$(stats < "$work/jq")" "$(stats < "$work/jq.cpu")"
for c in check cache; do
	printf '%-24s %-28s %s\n' "$c --json DIR, s" "$(stats < "$work/$c")" "$(stats < "$work/$c.cpu")"
	printf '%-24s %-28s %s\n' "  GOMAXPROCS=1, s" "$(stats < "$work/${c}1")" "$(stats < "$work/${c}1.cpu")"
	printf '%-24s %-28s %s\n' "  / jq" "$(ratio "$c" jq | stats)" "$(ratio "$c.cpu" jq.cpu | stats)"
	printf '%-24s %s\n' "  GOMAXPROCS=1 / =2" "$(ratio "${c}1" "$c" | stats)"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
