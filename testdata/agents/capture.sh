#!/usr/bin/env bash
# capture.sh: capture what today's coding agents send, offline.
#
# Installs pinned versions of Claude Code, Codex and Gemini CLI from the npm
# registry into a temporary folder, runs each once through
# `wirelens record --mock` (no key, no network beyond npm) in a temporary
# HOME and a temporary workspace that holds an AGENTS.md, a CLAUDE.md, a
# GEMINI.md and a skill written for this test with hostile content (taken
# from testdata/corpora/hostile-seeds.json), and writes the captures here:
#
#   testdata/agents/codex.jsonl        Codex (Apache-2.0): kept as captured
#   testdata/agents/gemini-cli.jsonl   Gemini CLI (Apache-2.0): kept as captured
#   testdata/agents/claude-code.jsonl  Claude Code (all rights reserved): its
#                                      host prose replaced by placeholder text
#                                      of the same shape (see redact-host.js)
#
# Needs: go, node (20 or later) and npm. Run from anywhere:
#   bash testdata/agents/capture.sh
# KEEP=1 keeps the temporary folder (and the unredacted Claude Code capture
# in it, which must never be committed).
set -euo pipefail

CLAUDE_VERSION=2.1.328
CODEX_VERSION=0.169.0
GEMINI_VERSION=0.61.0
PROMPT='What is 2+2?'

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wirelens-agents.XXXXXX")
if [ "${KEEP:-}" = "" ]; then trap 'rm -rf "$tmp"' EXIT; else echo "keeping $tmp"; fi

echo "building wirelens" >&2
(cd "$repo" && go build -o "$tmp/wirelens" .)

echo "installing the agents (npm)" >&2
mkdir -p "$tmp/npm"
npm install --silent --no-audit --no-fund --prefix "$tmp/npm" \
  "@anthropic-ai/claude-code@$CLAUDE_VERSION" "@openai/codex@$CODEX_VERSION" "@google/gemini-cli@$GEMINI_VERSION" >&2
bin="$tmp/npm/node_modules/.bin"

# The workspace: instruction files and a skill of our own, each carrying
# hostile strings from the corpus (an envelope breakout, a forged system tag,
# a bidi override, tag characters, a terminal escape).
ws="$tmp/workspace"
mkdir -p "$ws"
node "$here/workspace.js" "$repo/testdata/corpora/hostile-seeds.json" "$ws"
(cd "$ws" && git init -q && git -c user.email=w@example.invalid -c user.name=wirelens add -A &&
  git -c user.email=w@example.invalid -c user.name=wirelens commit -qm workspace)

# A fresh HOME per agent: no login, no settings of the user's, no history.
fresh_home() {
  local h="$tmp/home-$1"
  rm -rf "$h"; mkdir -p "$h"
  echo "$h"
}
quiet_env=(DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 NO_COLOR=1 CI=1)

run() { # name, then the command
  local name=$1; shift
  local out="$tmp/$name.jsonl"
  rm -f "$out"
  echo "recording $name" >&2
  (cd "$ws" && env "${quiet_env[@]}" timeout 300 "$tmp/wirelens" record --mock --out "$out" -- "$@" </dev/null) \
    >"$tmp/$name.out" 2>&1 || { echo "$name failed:" >&2; cat "$tmp/$name.out" >&2; return 1; }
}

# Claude Code.
h=$(fresh_home claude)
HOME=$h run claude-code "$bin/claude" -p "$PROMPT"

# Codex: record gives it a model provider pointed at the proxy.
h=$(fresh_home codex)
mkdir -p "$h/.codex"
HOME=$h CODEX_HOME=$h/.codex run codex "$bin/codex" exec --skip-git-repo-check "$PROMPT"

# Gemini CLI: API-key auth (record --mock sets GEMINI_DEFAULT_AUTH_TYPE too),
# the workspace trusted so that it reads GEMINI.md.
h=$(fresh_home gemini)
mkdir -p "$h/.gemini"
printf '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n' >"$h/.gemini/settings.json"
HOME=$h GEMINI_CLI_TRUST_WORKSPACE=true run gemini-cli "$bin/gemini" -p "$PROMPT"

# The temporary paths are the same shape on every run; make them stable so
# that a refresh diffs only where the agents changed.
normalise() { # in, out
  node "$here/normalise.js" "$1" "$tmp" >"$2"
}
normalise "$tmp/codex.jsonl" "$here/codex.jsonl"
normalise "$tmp/gemini-cli.jsonl" "$here/gemini-cli.jsonl"
normalise "$tmp/claude-code.jsonl" "$tmp/claude-code.normal.jsonl"
node "$here/redact-host.js" "$tmp/claude-code.normal.jsonl" "$ws" >"$here/claude-code.jsonl"

# The workspace's own files, for the tests that check each of their bytes is
# classified as the workspace's.
mkdir -p "$here/workspace"
cp "$ws/AGENTS.md" "$ws/CLAUDE.md" "$ws/GEMINI.md" "$here/workspace/"
cp "$ws/.claude/skills/wl-deploy/SKILL.md" "$here/workspace/SKILL.md"

for f in claude-code codex gemini-cli; do
  echo "$f: $(wc -l <"$here/$f.jsonl") exchanges" >&2
done
printf 'captured %s with Claude Code %s, Codex %s, Gemini CLI %s\n' "$(date -u +%Y-%m-%d)" \
  "$CLAUDE_VERSION" "$CODEX_VERSION" "$GEMINI_VERSION" >&2
