// redact-host.js FILE WORKSPACE [HOME]: prints the Claude Code capture FILE with
// Claude Code's own text (its package is "all rights reserved") replaced by
// placeholder text of the same length, line for line, so that the capture
// keeps its shape for wirelens's tests without holding the host's prose:
// kept are the blocks and roles, cache_control, the tools' names and schema
// structure, the <system-reminder> envelopes, section headings, short
// "key: value" facts and the names of list entries, the framing sentences
// that introduce workspace text (the ones wirelens classifies by: "Contents
// of PATH (...):", the context and skills-listing sentences), and every byte
// of text that came from the workspace (the files under WORKSPACE, the
// user's prompt, git status), the user's own file in HOME
// (~/.claude/CLAUDE.md), and the MCP server's tools (mcp__SERVER__TOOL: the
// server's text, written for this test by mcp-server.js).
const fs = require("fs");
const path = require("path");
const [file, workspace, home] = process.argv.slice(2);

// Workspace and user text kept verbatim wherever it appears.
const verbatim = [];
const keepFiles = (root, rels) => {
  for (const rel of rels) {
    const p = path.join(root, rel);
    if (fs.existsSync(p)) verbatim.push(fs.readFileSync(p, "utf8"));
  }
};
keepFiles(workspace, ["CLAUDE.md", "AGENTS.md", ".claude/skills/wl-deploy/SKILL.md"]);
if (home) keepFiles(home, [".claude/CLAUDE.md"]);

const filler = "Placeholder for Claude Code's own text (all rights reserved), replaced by capture.sh. ";
const fill = (n) => {
  let s = "";
  while (s.length < n) s += filler;
  return s.slice(0, n);
};

const keepLine = (l) =>
  l.trim() === "" ||
  /^\s*<\/?[a-z_-]+>\s*$/.test(l) || // envelope tags on lines of their own
  /^Contents of .*:\s*$/.test(l) ||
  l.includes("OVERRIDE any default behavior") ||
  (/^#+ \S/.test(l) && l.length < 60) ||
  (/^\s*- [A-Z][A-Za-z ]{1,30}: \S/.test(l) && l.length < 100) ||
  /^(Current branch|Status|Recent commits):/.test(l) ||
  /^[0-9a-f]{7,} /.test(l) ||
  l === "(clean)" ||
  /^x-anthropic-billing-header:/.test(l) ||
  l.includes("you can use the following context:") ||
  l.includes("skills are available for use with the Skill tool:") ||
  /wl-deploy|WL-[A-Z-]+MARKER|mcp__/.test(l);

// prose replaces the host's lines of s, keeping workspace text whole.
function prose(s) {
  for (const v of verbatim) {
    const i = s.indexOf(v);
    if (i >= 0) return prose(s.slice(0, i)) + v + prose(s.slice(i + v.length));
  }
  return s
    .split("\n")
    .map((l) => {
      if (keepLine(l)) return l;
      // A label with a parenthesis keeps its shape and its value
      // ("Main branch (...): main").
      const label = l.match(/^([A-Z][A-Za-z ]*\()([^)]*)(\): .*)$/);
      if (label) return label[1] + fill(label[2].length) + label[3];
      // A list entry keeps its name ("- NAME: description").
      const item = l.match(/^(\s*- [\w.:-]{1,60}: )(.*)$/);
      if (item) return item[1] + fill(item[2].length);
      // A line that opens or closes an envelope keeps the tag.
      const m = l.match(/^(\s*<[a-z_-]+>)(.*)$/) || l.match(/^(.*?)(<\/[a-z_-]+>\s*)$/);
      if (m && m[1].startsWith("<")) return m[1] + fill(m[2].length);
      if (m) return fill(m[1].length) + m[2];
      return fill(l.length);
    })
    .join("\n");
}

// schema replaces the descriptions in a tool's input schema.
function schema(v) {
  if (Array.isArray(v)) return v.map(schema);
  if (v && typeof v === "object") {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === "description" && typeof x === "string" ? prose(x) : schema(x);
    return out;
  }
  return v;
}

function content(c) {
  if (typeof c === "string") return c === "What is 2+2?" ? c : prose(c);
  if (!Array.isArray(c)) return c;
  return c.map((b) => (b && b.type === "text" && typeof b.text === "string" ? { ...b, text: content(b.text) } : b));
}

const out = [];
for (const line of fs.readFileSync(file, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const rec = JSON.parse(line);
  const b = rec.request && rec.request.body;
  if (b && typeof b === "object") {
    if (Array.isArray(b.system)) b.system = content(b.system);
    else if (typeof b.system === "string") b.system = prose(b.system);
    if (Array.isArray(b.tools))
      b.tools = b.tools.map((t) => typeof t.name === "string" && t.name.startsWith("mcp__") ? t : ({
        ...t,
        ...(typeof t.description === "string" ? { description: prose(t.description) } : {}),
        ...(t.input_schema ? { input_schema: schema(t.input_schema) } : {}),
      }));
    if (Array.isArray(b.messages)) b.messages = b.messages.map((m) => ({ ...m, content: content(m.content) }));
  }
  out.push(JSON.stringify(rec));
}
process.stdout.write(out.join("\n") + "\n");
