package wire

// Classify cuts a part into segments of one trust each and gives each its
// kind, trust and envelope. Joining the segments' texts in order gives the
// part's text back.
func Classify(p Part) []Segment {
	s := Segment{ID: p.ID, Part: p.ID, Channel: p.Channel, Role: p.Role, Label: p.Name,
		Text: p.Text, CacheBreakpoint: p.CacheBreakpoint}
	s.Kind, s.Trust = baseKind(p)
	return []Segment{s}
}

// baseKind is the kind and trust of a part that carries no envelope.
func baseKind(p Part) (Kind, Trust) {
	switch p.Type {
	case "tool":
		return KindToolSchema, Trusted
	case "tool_use", "function_call", "functionCall", "tool_call":
		return KindToolCall, TrustModel
	case "tool_result", "function_call_output", "functionResponse":
		return KindToolResult, Untrusted
	case "thinking", "reasoning", "redacted_thinking":
		return KindAssistant, TrustModel
	}
	if p.Channel == ChannelTools {
		return KindToolSchema, Trusted
	}
	if p.Channel == ChannelSystem {
		return KindHostRules, Trusted
	}
	switch p.Role {
	case "assistant", "model":
		return KindAssistant, TrustModel
	case "tool", "function":
		return KindToolResult, Untrusted
	case "system", "developer":
		return KindHostRules, Trusted
	}
	return KindUserInput, TrustUser
}
