// Package capture records the live wire: a loopback reverse proxy, in the
// style of a provider's base URL (no TLS interception, no certificate), that
// forwards each model request to its provider (Anthropic Messages, OpenAI
// Chat and Responses, Gemini generateContent, and OpenAI-compatible hosts)
// and streams the answer back as it arrives, or, in mock mode, answers each
// request itself in the request's own API shape so an agent runs to its end
// offline with no key. Every exchange is appended to a recording in the
// claude-trace JSONL shape that wire/decode reads, one whole line per
// exchange, credentials replaced by hints (wire/redact) before anything is
// written. For record it also is a forward proxy (Forward): the HTTPS_PROXY
// of the agent, with a certificate authority made for the one run (CA),
// terminating TLS for the model providers' hosts (ProviderHosts) and
// tunnelling every other; WebSocket upgrades are relayed and each message
// recorded. Recipes holds what each known agent needs beyond the
// environment (Env, ForwardEnv).
package capture
