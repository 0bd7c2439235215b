#!/bin/sh
# Peak memory of `wirelens cache` on a flood of tiny requests, beside decoding
# alone: cache streams, so it should cost little more than the decoder.
# Installs nothing.
#
#   .ci/cache-memory.sh [REQUESTS]     (default 200000 tiny requests)
#
# Each request is one short JSONL line that asks something else (an
# Anthropic body, then the same as OpenAI chat bodies, whose automatic prefix
# caching is modelled differently). Prints user time and peak RSS for:
#   wirelens gen-session --decode FILE   (decode only: every request, streamed)
#   wirelens cache FILE                  (the text report)
#   wirelens cache --json FILE           (the JSON report)
set -eu

requests=${1:-200000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

cd "$root"
go build -o "$work/wirelens" .
awk -v n="$requests" 'BEGIN { for (i = 0; i < n; i++)
	printf "{\"model\":\"claude-sonnet-4-6\",\"max_tokens\":16,\"system\":\"You are terse.\",\"messages\":[{\"role\":\"user\",\"content\":\"ping %d\"}]}\n", i }' \
	> "$work/anthropic.jsonl"
awk -v n="$requests" 'BEGIN { for (i = 0; i < n; i++)
	printf "{\"model\":\"gpt-5\",\"messages\":[{\"role\":\"system\",\"content\":\"You are terse.\"},{\"role\":\"user\",\"content\":\"ping %d\"}]}\n", i }' \
	> "$work/openai.jsonl"

if [ ! -x /usr/bin/time ]; then
	echo "/usr/bin/time not found: it measures the peak RSS" >&2
	exit 1
fi

# run LABEL CMD...: measure one command, its output discarded.
run() {
	label=$1
	shift
	/usr/bin/time -f "%U %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || {
		echo "$label: failed" >&2
		cat "$work/err" >&2
		return 1
	}
	read -r user rss < "$work/time"
	printf '%-40s user %6ss  peak RSS %7d KB\n' "$label" "$user" "$rss"
}

for f in anthropic openai; do
	echo "$f: $requests requests, $(wc -c < "$work/$f.jsonl") bytes"
	run "  wirelens gen-session --decode" "$work/wirelens" gen-session --decode "$work/$f.jsonl"
	run "  wirelens cache" "$work/wirelens" cache "$work/$f.jsonl"
	run "  wirelens cache --json" "$work/wirelens" cache --json "$work/$f.jsonl"
done
