package wire

// Part is one piece of text as a decode.Decoder finds it on the wire, before the
// classifier cuts it at envelope and legacy-section boundaries.
type Part struct {
	ID      string  // "system[0]", "messages[3].content[1]", "tools[2]"
	Channel Channel // where it sits
	Role    string  // system, developer, user, assistant, tool, model, function
	// Type is the wire type of the part: "text", "tool_use", "tool_result",
	// "thinking", "image", "function_call", "function_call_output",
	// "reasoning", "tool" (a tool schema), "functionCall", PartHostNote, ...
	Type string
	// Name is a tool's name, for tool schemas, calls and results.
	Name string
	Text string
	// CacheBreakpoint marks an explicit cache breakpoint on this part.
	CacheBreakpoint bool
	// CacheTTL1h says the breakpoint asks for the 1-hour lifetime
	// (cache_control.ttl "1h") instead of the default 5 minutes.
	CacheTTL1h bool
}

// PartHostNote is the Type of a part that a reader knows the host wrote
// about a tool's result, in a part of its own (kimi-cli's "<system>...</system>"
// note before a tool's output). It is classified as wire.KindHostNote,
// trusted, and never cut.
const PartHostNote = "host_note"
