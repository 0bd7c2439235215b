package capture

import (
	"net/http"
	"net/url"
	"strings"
)

// The providers' own hosts, chosen by the path and headers of a request
// when no upstream is given.
var (
	anthropicUpstream = &url.URL{Scheme: "https", Host: "api.anthropic.com"}
	openaiUpstream    = &url.URL{Scheme: "https", Host: "api.openai.com"}
	geminiUpstream    = &url.URL{Scheme: "https", Host: "generativelanguage.googleapis.com"}
)

// API is the provider API a request path belongs to.
type API string

// The APIs the proxy tells apart by path.
const (
	APIAnthropic API = "anthropic"
	APIChat      API = "openai-chat"
	APIResponses API = "openai-responses"
	APIGemini    API = "gemini"
	APIOther     API = ""
)

// apiOf names the API of a request path (and, for paths every provider
// could have, its headers).
func apiOf(path string, h http.Header) API {
	p := strings.TrimRight(path, "/")
	switch {
	case strings.Contains(p, ":generateContent"), strings.Contains(p, ":streamGenerateContent"),
		strings.Contains(p, ":countTokens"), strings.Contains(p, ":embedContent"), strings.Contains(p, ":batchEmbedContents"),
		strings.HasPrefix(p, "/v1beta/"), strings.HasPrefix(p, "/v1alpha/"):
		return APIGemini
	case strings.HasSuffix(p, "/messages"), strings.HasSuffix(p, "/messages/count_tokens"):
		return APIAnthropic
	case strings.HasSuffix(p, "/chat/completions"):
		return APIChat
	case strings.HasSuffix(p, "/responses"), strings.HasSuffix(p, "/responses/compact"):
		return APIResponses
	}
	switch {
	case h.Get("anthropic-version") != "" || h.Get("x-api-key") != "":
		return APIAnthropic
	case h.Get("x-goog-api-key") != "":
		return APIGemini
	}
	return APIOther
}

// upstreamFor is the provider a request goes to when no --upstream is set:
// Gemini's host for Gemini paths or a Google API key, Anthropic's for
// Messages paths or Anthropic headers, else OpenAI's.
func upstreamFor(r *http.Request) *url.URL {
	switch apiOf(r.URL.Path, r.Header) {
	case APIGemini:
		return geminiUpstream
	case APIAnthropic:
		return anthropicUpstream
	}
	return openaiUpstream
}
