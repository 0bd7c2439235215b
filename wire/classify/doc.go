// Package classify gives each piece of a request its kind and trust: it cuts
// a wire.Part at the envelopes and framings hosts write and at the legacy
// sections pasted into system prompts, recognises escapes already applied,
// and builds a Request's segments (Builder).
//
// How each host lays out workspace text is data, the rows of wire/framing
// (each naming the agents that write it, with a fixture the tests here
// run); this package holds the readers of the rows and no reader of one
// agent: a row of a table is read the same whichever agent wrote it
// (TestLayoutAsData judges a made-up agent's request by rows read from a
// file). What stays in code, because it is a rule for any host rather than
// a layout:
//
//   - the pairing of envelope tags and what counts as a breakout
//     (dialects.go: the first closer followed by another envelope or the
//     end, stray tags making the text around them untrusted);
//   - the legacy sections of a system prompt that follows no framing
//     (legacy.go: fences judged by the paragraph before them, time lines,
//     skill lists after a skills sentence): heuristics over words, not one
//     host's bytes;
//   - where a framed block with no closer ends (framings.go: at the next
//     framing, the host's last well-formed markup block or skill list,
//     before its lead-in) and the trust rules for what may have been forged
//     after a workspace text (a header after a workspace file in a context
//     block, a skill after an unescaped workspace skill);
//   - the drawn directory trees and skill lists inside a host's envelope
//     (layouts.go) and the origin of a skill from the session's working
//     directory and the shape of a home folder (skills.go).
package classify
