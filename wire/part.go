package wire

// Part is one piece of text as a decode.Decoder finds it on the wire, before the
// classifier cuts it at envelope and legacy-section boundaries.
type Part struct {
	ID      string  // "system[0]", "messages[3].content[1]", "tools[2]"
	Channel Channel // where it sits
	Role    string  // system, developer, user, assistant, tool, model, function
	// Type is the wire type of the part: "text", "tool_use", "tool_result",
	// "thinking", "image", "function_call", "function_call_output",
	// "reasoning", "tool" (a tool schema), "functionCall", ...
	Type string
	// Name is a tool's name, for tool schemas, calls and results.
	Name string
	Text string
	// CacheBreakpoint marks an explicit cache breakpoint on this part.
	CacheBreakpoint bool
}
