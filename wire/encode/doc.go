// Package encode writes a Request back as each provider's JSON body
// (Anthropic Messages, OpenAI Chat and Responses, Gemini), for `build`, and
// generates synthetic sessions for benchmarks.
package encode
