// Package classify gives each piece of a request its kind and trust: it cuts
// a wire.Part at the envelopes and markers of known agents' dialects and at
// the legacy sections pasted into system prompts, recognises escapes already
// applied, and builds a Request's segments (Builder).
package classify
