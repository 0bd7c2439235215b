// Package recording reads the session files coding agents write on their
// own (kimi-cli, kimi-code, Codex, Claude Code,
// Gemini CLI) and turns each into the
// requests the agent sent, noting in Request.Notes what the recording cannot
// tell. It holds the one list of recording formats, their detection by shape,
// and the search of session directories; package decode drives its Readers.
package recording
