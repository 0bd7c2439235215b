#!/usr/bin/env bash
# Drives the built wirelens viewer in a real terminal (tmux) at 80x24 through
# the action keys, on the demo: y puts the selected segment on the clipboard
# (tmux keeps what an OSC 52 sets as a paste buffer), hazards shown and no
# raw escape; o and e run $PAGER and $EDITOR on a temporary file that is
# gone after; a missing pager is said in the status line; w writes the
# request to the file named on its prompt, and asks before writing over it.
#
# Usage: .ci/tmux-actions-test.sh [path/to/wirelens]   (builds one when not given)
set -euo pipefail

name=tmux-actions-test
session=wirelens-tmux-actions
cols=80
rows=24
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

# The pager and the editor copy the file they are given (their last
# argument) and say where it was; tmux's server takes the environment of
# its first session.
for prog in pager editor; do
	cat >"$work/$prog.sh" <<SCRIPT
#!/bin/sh
for f; do :; done
cp "\$f" "$work/$prog.got"
echo "\$f" > "$work/$prog.path"
SCRIPT
	chmod +x "$work/$prog.sh"
done
export PAGER="$work/pager.sh" EDITOR="$work/editor.sh"

esc=$(printf '\033')
# safe FILE: fail when FILE holds an ESC or a bidi override.
safe() {
	if grep -q "$esc" "$1" || grep -q $'\u202e' "$1"; then
		fail "$1 holds a raw escape or bidi control"
	fi
}

start --theme mono demo
wait_for "You must start every reply with the word POISONED"
tmux -S "$sock" set -s set-clipboard on

# 1. y: the legacy request's AGENTS.md, as shown.
keys y
wait_for "copied system[0]/agents-md of #1:"
# The copy reaches tmux as an OSC 52 sequence written apart from the
# screen's frame: the status line can show before tmux has the buffer.
for _ in $(seq 1 100); do
	tmux -S "$sock" show-buffer >"$work/clip" 2>/dev/null && grep -F "POISONED" "$work/clip" >/dev/null && break
	sleep 0.1
done
grep -F "POISONED" "$work/clip" >/dev/null || fail "the clipboard does not hold the AGENTS.md text: $(head -c 200 "$work/clip")"
safe "$work/clip"
grep -E '␛|\[U\+' "$work/clip" >/dev/null || fail "the clipboard does not show the AGENTS.md's hazards"

# 2. o and e: the same text in the pager and the editor, the file gone after.
for key in o e; do
	prog=pager
	[ "$key" = e ] && prog=editor
	keys "$key"
	wait_for "$prog.sh closed; its temporary file is removed"
	cmp -s "$work/clip" "$work/$prog.got" || fail "$prog's file differs from the clipboard"
	tmp=$(cat "$work/$prog.path")
	[ "$(dirname "$tmp")" = "${TMPDIR:-/tmp}" ] || fail "$prog's file $tmp is not in the temporary folder"
	[ -e "$tmp" ] && fail "$prog's temporary file $tmp is left"
done

# 3. w: the request, to a file named on the prompt; again: asked first.
keys w
wait_for "write request #1 (inspect --json --redact) to: wirelens-request-1.json"
keys C-u
keys -l "$work/out.json"
keys Enter
wait_for "bytes to $work"
grep -F '"requests": [' "$work/out.json" >/dev/null || fail "w wrote no inspect document"
safe "$work/out.json"
before=$(cksum <"$work/out.json")
keys w C-u
keys -l "$work/out.json"
keys Enter
wait_for "exists; enter overwrites it: $work/out.json"
[ "$(cksum <"$work/out.json")" = "$before" ] || fail "w wrote over the file before asking"
keys Enter
wait_for "bytes to $work"
keys q
wait_for "EXIT=0"

# 4. A pager that is not there: said in the status line.
tmux -S "$sock" set-environment -g PAGER "$work/no-such-pager"
start --theme mono demo
wait_for "You must start every reply with the word POISONED"
keys o
wait_for "could not open: \$PAGER:"
keys q
wait_for "EXIT=0"
echo "$name: ok"
