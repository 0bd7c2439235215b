// normalise.js FILE TMP [NPM]: prints the capture FILE with the temporary
// folder TMP (and its realpath) replaced by /tmp/wirelens-agents, the npm
// prefix NPM the agents were installed in (when given: capture.sh's
// AGENTS_NPM, outside TMP) by /tmp/wirelens-agents/npm, and the proxy's port
// by 8787, so that refreshed captures differ only where the agents do. (The
// captures made before 2026-12-02 keep qwen-code's dashed form of TMP.)
const fs = require("fs");
const [file, tmp, npm = ""] = process.argv.slice(2);
let text = fs.readFileSync(file, "utf8");
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const swap = (from, to) => {
  for (const t of new Set([fs.realpathSync(from), from])) {
    text = text.replace(new RegExp(esc(t), "g"), to);
  }
};
if (npm !== "") swap(npm.replace(/\/+$/, ""), "/tmp/wirelens-agents/npm");
swap(tmp, "/tmp/wirelens-agents");
// qwen-code names its project folder by the path with every other character
// a dash (-tmp-wirelens-agents-XXXXXX-workspace).
for (const t of new Set([fs.realpathSync(tmp), tmp])) {
  text = text.replace(new RegExp(esc(t.replace(/[^A-Za-z0-9]/g, "-")) + "(?=-)", "g"), "-tmp-wirelens-agents");
}
text = text.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:8787");
process.stdout.write(text);
