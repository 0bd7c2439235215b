#!/usr/bin/env bash
# Drives the built wirelens viewer in a real terminal (tmux) with send-keys and
# checks the screen with capture-pane: the viewer opens, views switch by key,
# search finds text across requests, hostile payload bytes show visibly and
# never act on the terminal, and q quits with exit status 0.
#
# Usage: .ci/tmux-test.sh [path/to/wirelens]   (builds one when not given)
set -euo pipefail

name=tmux-test
session=wirelens-tmux-test
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

# A hostile payload: a clear-screen sequence, a window-title OSC, a bidi
# override and a C1 CSI inside the user's message.
printf '%s\n' '{"model":"claude-sonnet-4-5","max_tokens":16,"system":"You are a coding agent.","messages":[{"role":"user","content":"before\u001b[2J\u001b]0;PWNED\u0007 mid \u202eevil \u009b31m after"}]}' >"$work/hostile.json"

# 1. A session: the list, both columns, the views, search, quit.
start view testdata/sessions/session.jsonl
wait_for "TRUSTED PREFIX"
wait_for "MESSAGES"
wait_for "Requests"
keys 4
wait_for "Prompt cache"
keys 5
wait_for "Diff #"
keys 6
wait_for "Raw JSON"
keys '?'
wait_for "search all requests"
keys Escape; sleep 0.3; keys 1
wait_for "TRUSTED PREFIX"
keys / O p e n Space m a i n Enter
wait_for "match 1/"
keys n
wait_for "match 2/"
keys q
wait_for "EXIT=0"

# 2. The hostile payload: shown visibly, the terminal untouched.
start --theme mono view "$work/hostile.json"
wait_for "TRUSTED PREFIX"
# The first frame can come before the request has loaded: wait for the
# user's segment in the messages column before moving to it.
wait_for "messages[0]"
keys l
wait_for "[U+202E]"
wait_for "␛[2J"
s=$(screen)
echo "$s" | grep -F "TRUSTED PREFIX" >/dev/null || fail "the screen was cleared by the payload"
title=$(tmux -S "$sock" display-message -p -t "$session" '#{pane_title}')
case "$title" in
*PWNED*) fail "the payload set the window title: $title" ;;
esac
keys q
wait_for "EXIT=0"

# 3. A file with a broken line: the rest is shown, the error is named, and
# the exit status after q is 2 with the error on standard error.
start view testdata/sessions/broken.jsonl
wait_for "input error: testdata/sessions/broken.jsonl:"
keys q
wait_for "EXIT=2"
wait_for "wirelens: testdata/sessions/broken.jsonl:"

# 4. Not a terminal: the plain report, exit 0.
out=$(cd "$root" && "$bin" view testdata/sessions/session.jsonl)
echo "$out" | grep -F "session.jsonl@3" >/dev/null || fail "view into a pipe did not print the report"

echo "tmux-test: ok"
