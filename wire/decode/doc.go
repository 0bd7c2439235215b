// Package decode is the one way in for recorded input: Decode and Path read
// any file wirelens understands (a provider's request body, an array or JSONL
// of them, a HAR export, a claude-trace log, an agent's recording or a
// directory of them), detect its format by shape, and stream its requests
// with one-line errors (Error) naming the file and line. What it hands out
// (requests, errors, bodies read back with ReadBody) has its recorded
// credentials masked (package redact).
package decode
