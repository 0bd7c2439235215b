#!/usr/bin/env bash
# Drives the built wirelens viewer in a real terminal (tmux) on payloads whose
# model name, tool name and message are padded with text that terminals and
# x/ansi measure differently (prepended concatenation marks such as U+0600,
# ZWJ emoji sequences, skin-tone modifiers), and checks the screen with
# capture-pane: no row runs into the pane beside it (every pane's right
# border is where it belongs and the neighbouring column's text is intact),
# the text after the padding is shown, and nothing stale stays behind once a
# view without payload text replaces it.
#
# Usage: .ci/tmux-width-test.sh [path/to/wirelens]   (builds one when not given)
set -euo pipefail

name=tmux-width-test
session=wirelens-tmux-width
cols=120
rows=36
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

# payload PAD: an Anthropic request whose model, tool name and message all
# start with PAD (JSON string escapes).
payload() {
	local pad=$1
	printf '{"model":"%smodel","max_tokens":16,"tools":[{"name":"%sTOOL_AFTER","description":"d","input_schema":{"type":"object"}}],"system":"You are a coding agent.","messages":[{"role":"user","content":"%sMSG_AFTER"}]}\n' "$pad" "$pad" "$pad"
}
repeat() { for _ in $(seq 1 "$2"); do printf '%s' "$1"; done; }
payload "$(repeat '\u0600' 40)" >"$work/marks.json"
payload "$(repeat '\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67' 14)" >"$work/zwj.json"
payload "$(repeat '\ud83d\udc4d\ud83c\udffd' 20)" >"$work/skin.json"

# wait_for_text TEXT: poll the screen until its panes' text, without frames,
# spaces and line ends, holds TEXT (a wrapped row may split it).
wait_for_text() {
	for _ in $(seq 1 300); do
		if screen | sed 's/[│║]//g' | tr -d ' \n' | grep -F -- "$1" >/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	fail "the screen never showed: $1"
}

# settle: wait until two captures a moment apart agree.
settle() {
	local a b
	a=$(screen)
	for _ in $(seq 1 50); do
		sleep 0.2
		b=$(screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}

# check_frame WHAT: the body's lines (between the header and the status
# line) each end with a pane border in the last column.
check_frame() {
	local s n=0 line
	s=$(screen)
	while IFS= read -r line; do
		n=$((n + 1))
		[ "$n" -le 1 ] && continue
		[ "$n" -ge "$rows" ] && break
		case "$line" in
		*"│" | *"║" | *"┐" | *"┘" | *"╗" | *"╝") ;;
		*) fail "$1: line $n does not end with the pane's border: $line" ;;
		esac
	done <<<"$s"
}

# check_columns WHAT: the wire view's frame, the line of the segment columns'
# titles holds both titles whole, and the tool's second row (its padded name)
# sits beside the message's second row, which keeps its ID and its border.
check_columns() {
	local s row
	check_frame "$1"
	s=$(screen)
	echo "$s" | grep -F "TRUSTED PREFIX · tools + system" | grep -F "MESSAGES · fragments + conversation" >/dev/null ||
		fail "$1: the column titles are not both whole on one line"
	row=$(echo "$s" | grep -A1 -F "[TRUSTED] tool-schema" | tail -n 1)
	case "$row" in
	*"messages[0] · "*" tok "*"│" | *"messages[0] · "*" tok "*"║") ;;
	*) fail "$1: the message's row beside the tool's is not intact: $row" ;;
	esac
}

for kind in marks zwj skin; do
	start --theme mono view "$work/$kind.json"
	wait_for "TRUSTED PREFIX"
	wait_for "messages[0]"
	settle
	check_columns "$kind: the tool selected"
	wait_for_text "TOOL_AFTER"
	keys l
	wait_for_text "MSG_AFTER"
	settle
	check_columns "$kind: the message selected"
	# The help view holds no payload text: nothing of the padding may stay.
	keys '?'
	wait_for "search all requests"
	settle
	check_frame "$kind: help"
	if screen | grep -E 'U\+0600|model|TOOL_AFTER|MSG_AFTER' >/dev/null; then
		fail "$kind: stale payload text in the help view"
	fi
	if screen | LC_ALL=C grep -P '\xf0\x9f' >/dev/null; then
		fail "$kind: stale emoji in the help view"
	fi
	keys q
	wait_for "EXIT=0"
done

echo "tmux-width-test: ok"
