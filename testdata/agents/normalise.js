// normalise.js FILE TMP: prints the capture FILE with the temporary folder
// TMP (and its realpath) replaced by /tmp/wirelens-agents, and the proxy's
// port by 8787, so that refreshed captures differ only where the agents do.
const fs = require("fs");
const [file, tmp] = process.argv.slice(2);
let text = fs.readFileSync(file, "utf8");
const real = fs.realpathSync(tmp);
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
for (const t of new Set([real, tmp])) {
  text = text.replace(new RegExp(esc(t), "g"), "/tmp/wirelens-agents");
}
text = text.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:8787");
process.stdout.write(text);
