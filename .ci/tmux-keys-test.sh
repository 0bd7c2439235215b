#!/usr/bin/env bash
# Drives the built wirelens viewer in a real terminal (tmux) at 80x24 through
# the navigation keys of issue 25: 7 (the Response view of a recorded
# exchange, and of one recorded without a response), W and ←/→ (long lines
# cut and scrolled sideways), z (a pane zoomed to the screen and back), M
# (the mouse left to the terminal: tmux sees the viewer stop asking for it),
# ] and [ (from finding to finding, across requests, saying when they start
# again).
#
# Usage: .ci/tmux-keys-test.sh [path/to/wirelens]   (builds one when not given)
set -euo pipefail

name=tmux-keys-test
session=wirelens-tmux-keys
cols=80
rows=24
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

# mouse_asked: 1 while the program in the pane asks for mouse events.
mouse_asked() { tmux -S "$sock" display-message -p -t "$session" '#{mouse_any_flag}'; }

# 1. The Response view: the exchange's status, headers (the key masked) and
# the answer joined from its stream; the next request has none, and says so.
start --theme mono view ui/testdata/response/trace.jsonl
wait_for "Requests"
keys 7
wait_for "HTTP 200 · text/event-stream · 10 server-sent events"
wait_for "x-api-key: [redacted by wirelens]"
wait_for "The tests pass. Run ⟦␛[31m⟧make⟦␛[0m⟧"
not_on_screen "Xy9Xy9"

# 2. W cuts the long line with a marker; l scrolls sideways to its end; W
# wraps it again.
keys W
wait_for "long lines cut at the edge"
screen | grep -F "A long line follows" | grep -F "›" >/dev/null || fail "the cut line has no › marker"
not_on_screen "END."
for _ in $(seq 1 20); do keys l; done
wait_for "END."
screen | grep -F "END." | grep -F "‹" >/dev/null || fail "the line scrolled sideways has no ‹ marker"
keys W
wait_for "long lines wrap"
wait_for "A long line follows"

# 3. The request recorded without a response says so.
keys 1 BTab j 7
wait_for "Response · #2"
wait_for "No response was recorded with this request"

# 4. z gives the focused pane the screen, and back.
keys 1 Tab
wait_for "TRUSTED"
keys z
sleep 0.3
not_on_screen "Requests"
not_on_screen "MESSAGES"
keys z
wait_for "Requests"
wait_for "MESSAGES"

# 5. M leaves the mouse to the terminal, the status line says so until M
# again takes it back.
[ "$(mouse_asked)" = 1 ] || fail "the viewer does not ask for the mouse at start"
keys M
wait_for "mouse: the terminal's"
sleep 0.3
[ "$(mouse_asked)" = 0 ] || fail "after M the viewer still asks for the mouse"
keys j
wait_for "mouse: terminal (M)"
keys M
wait_for "mouse: the viewer's"
sleep 0.3
[ "$(mouse_asked)" = 1 ] || fail "after M again the viewer does not ask for the mouse"
keys q
wait_for "EXIT=0"

# 6. ] and [ in the demo: from finding to finding across its requests;
# past the last, back to the first, said.
start --theme mono demo
wait_for "POISONED"
keys ]
wait_for "#1 system[0]/"
# One key at a time: each ] waits for the status line to change before the
# next, or a fast loop on a loaded machine presses past the wrap message
# before the screen showed it.
status_line() { screen | tail -n 1; }
for _ in $(seq 1 80); do
	before=$(status_line)
	keys ]
	for _ in $(seq 1 100); do
		[ "$(status_line)" != "$before" ] && break
		sleep 0.05
	done
	if screen | grep -F "past the last finding or hazard, back to the first" >/dev/null; then
		break
	fi
done
wait_for "past the last finding or hazard, back to the first: #1 "
# [ before the first goes on to the last: the legacy build #2's (the
# isolated builds, #3 and #4, have neither findings nor hazards).
keys [
wait_for "before the first finding or hazard, on to the last: #2 "
keys q
wait_for "EXIT=0"

echo "tmux-keys-test: ok"
