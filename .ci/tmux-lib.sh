# Shared by the tmux scripts (.ci/tmux-*-test.sh): source it after setting
# name (the script's name in messages), session, and optionally cols and
# rows. It makes a work folder and a tmux server of its own (both removed on
# exit), takes the binary given as $1 or builds one, and defines fail,
# screen, wait_for, not_on_screen, keys and start.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
sock="$work/tmux.sock"
cols=${cols:-120}
rows=${rows:-36}
cleanup() {
	tmux -S "$sock" kill-server >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

if ! command -v tmux >/dev/null 2>&1; then
	echo "$name: tmux is not installed" >&2
	exit 3
fi

bin=${1:-}
if [ -z "$bin" ]; then
	bin="$work/wirelens"
	(cd "$root" && go build -o "$bin" .)
fi

fail() {
	echo "$name: FAIL: $*" >&2
	echo "---- screen ----" >&2
	tmux -S "$sock" capture-pane -p -t "$session" >&2 || true
	exit 1
}

screen() { tmux -S "$sock" capture-pane -p -t "$session"; }

# wait_for TEXT: poll the screen until it shows TEXT (up to 30 s: a loaded
# machine can be slow to start the binary).
wait_for() {
	for _ in $(seq 1 300); do
		if screen | grep -F -- "$1" >/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	fail "the screen never showed: $1"
}

# not_on_screen TEXT: fail when the screen shows TEXT.
not_on_screen() {
	if screen | grep -F -- "$1" >/dev/null; then
		fail "the screen shows: $1"
	fi
}

keys() { tmux -S "$sock" send-keys -t "$session" "$@"; }

# start ARGS: run the viewer with ARGS in a fresh session of cols x rows; the
# pane stays 30 s after it exits and shows its exit status. The new session
# (named after the script's, numbered) is made before the old one is
# killed: killing the server's last session ends the server, and a session
# made at that moment meets a server on its way out ("server exited
# unexpectedly" on a busy machine).
starts=0
start() {
	local old=$session
	base=${base:-$session}
	starts=$((starts + 1))
	session="$base-$starts"
	tmux -S "$sock" new-session -d -s "$session" -x "$cols" -y "$rows" \
		"cd '$root' && TERM=xterm-256color '$bin' $*; echo EXIT=\$?; sleep 30"
	tmux -S "$sock" kill-session -t "=$old" >/dev/null 2>&1 || true
}
