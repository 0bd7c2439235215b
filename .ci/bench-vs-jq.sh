#!/bin/sh
# Times wirelens decoding a generated long session against jq merely parsing
# the same file, side by side, with peak memory. Installs nothing.
#
#   .ci/bench-vs-jq.sh [REQUESTS]     (default 300 requests, about 80 MB)
#
# Prints wall and user time and peak RSS for:
#   jq -c '.messages|length' FILE        (skipped with a note when jq is absent)
#   wirelens gen-session --decode FILE   (decode only: every request, streamed)
#   wirelens inspect --json FILE         (decode, classify, count tokens, print)
#   wirelens cache --json FILE           (prompt-cache stability of the whole session)
#   wirelens check --json FILE           (every audit rule over the session)
set -eu

requests=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

cd "$root"
go build -o "$work/wirelens" .
"$work/wirelens" gen-session --requests "$requests" > "$work/session.jsonl"
size=$(wc -c < "$work/session.jsonl")
echo "session: $requests requests, $size bytes"

# run LABEL CMD...: time one command, its output discarded.
if [ -x /usr/bin/time ]; then
	run() {
		label=$1
		shift
		/usr/bin/time -f "%e %U %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || {
			echo "$label: failed" >&2
			cat "$work/err" >&2
			return 1
		}
		read -r wall user rss < "$work/time"
		printf '%-34s wall %6ss  user %6ss  peak RSS %7d KB\n' "$label" "$wall" "$user" "$rss"
	}
else
	echo "(/usr/bin/time not found: wall time only, no peak RSS)"
	run() {
		label=$1
		shift
		start=$(date +%s.%N)
		"$@" > /dev/null
		end=$(date +%s.%N)
		awk -v l="$label" -v s="$start" -v e="$end" 'BEGIN { printf "%-34s wall %6.2fs\n", l, e - s }'
	}
fi

if command -v jq > /dev/null 2>&1; then
	run "jq -c '.messages|length'" jq -c '.messages|length' "$work/session.jsonl"
else
	echo "jq not found: skipping the jq timing (install jq to compare)"
fi
run "wirelens gen-session --decode" "$work/wirelens" gen-session --decode "$work/session.jsonl"
run "wirelens inspect --json" "$work/wirelens" inspect --json "$work/session.jsonl"
run "wirelens cache --json" "$work/wirelens" cache --json "$work/session.jsonl"
run "wirelens check --json" "$work/wirelens" check --json "$work/session.jsonl"
