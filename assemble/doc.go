// Package assemble builds the request a coding agent would send from a
// workspace, in the legacy or the isolated layout, and rebuilds it live with
// a Watcher whenever the workspace changes.
//
// Collect reads the workspace into baseline payloads. Bind renders the
// baseline, host rules and a history into one wire.Request for a layout
// (legacy: everything in the system prompt; isolated: a byte-stable system
// prefix, the time and the workspace as request-time user fragments in
// <untrusted_*> envelopes). Refresh re-collects and reports what changed. A
// Watcher watches the workspace with fsnotify and emits a Rebuild after each
// change and each layout toggle.
//
// Everything read from a workspace is hostile. Collect reads it only through
// an fs.FS rooted at the workspace (os.OpenRoot for a directory on disk), so
// nothing outside the workspace is read; symbolic links are listed, never
// followed out. Collect never writes.
package assemble
