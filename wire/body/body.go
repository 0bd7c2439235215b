// Package body reads the request body of each provider API (Anthropic
// Messages, OpenAI Chat Completions, OpenAI Responses, Gemini) and the usage
// of its response. The payload decoder and the agents' recordings that embed
// those messages share it.
package body

import (
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// reader reads one walked request body of its format, adding its parts to b
// in wire order and setting b.Req.Model; elements seen before in the same
// input are taken from c.
type reader func(s *Shape, b *classify.Builder, c *ElementCache) error

// readerOf is the one list of body formats and the reader of each.
func readerOf(f wire.Format) reader {
	switch f {
	case wire.FormatOpenAIChat:
		return decodeOpenAIChat
	case wire.FormatOpenAIResponses:
		return decodeOpenAIResponses
	case wire.FormatAnthropic:
		return decodeAnthropic
	case wire.FormatGemini:
		return decodeGemini
	}
	return nil
}

// Formats are the body formats, in the order --format lists them.
func Formats() []wire.Format {
	return []wire.Format{wire.FormatOpenAIChat, wire.FormatOpenAIResponses, wire.FormatAnthropic, wire.FormatGemini}
}

// Has reports whether f is a body format.
func Has(f wire.Format) bool { return readerOf(f) != nil }

// Decode reads the walked body s of format f into b (see Has).
func Decode(f wire.Format, s *Shape, b *classify.Builder, c *ElementCache) error {
	return readerOf(f)(s, b, c)
}
