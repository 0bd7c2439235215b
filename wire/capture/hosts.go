package capture

import (
	"path"
	"strings"
)

// ProviderHost is a model provider's API host that record's forward proxy
// intercepts: TLS is terminated there with a leaf of the run's CA, and
// each exchange recorded (and, with --mock, answered).
type ProviderHost struct {
	Provider string
	// Pattern is a host name, or a pattern where * stands for any run of
	// characters (bedrock-runtime.*.amazonaws.com, *-aiplatform.googleapis.com).
	Pattern string
}

// ProviderHosts are the model APIs the forward proxy intercepts, as the
// providers document them and as the agents' own sources name them
// (checked against what the agents sent: cline 3.0.65 to api.cline.bot,
// qwen-code 0.24.4 to dashscope.aliyuncs.com, opencode 1.18.33 to
// api.anthropic.com; Kilo Code's gateway as its sources name it). Everything else is
// tunnelled untouched (refused with --mock). --intercept-host adds to it.
var ProviderHosts = []ProviderHost{
	{"Anthropic", "api.anthropic.com"},
	{"OpenAI", "api.openai.com"},
	{"OpenAI (Codex with a ChatGPT sign-in)", "chatgpt.com"},
	{"Azure OpenAI", "*.openai.azure.com"},
	{"Azure AI Foundry", "*.services.ai.azure.com"},
	{"Azure AI Services", "*.cognitiveservices.azure.com"},
	{"Google Gemini API", "generativelanguage.googleapis.com"},
	{"Google Code Assist (Gemini CLI signed in with Google)", "cloudcode-pa.googleapis.com"},
	{"Google Vertex AI", "aiplatform.googleapis.com"},
	{"Google Vertex AI (regional)", "*-aiplatform.googleapis.com"},
	{"Amazon Bedrock", "bedrock-runtime.*.amazonaws.com"},
	{"Amazon Bedrock (FIPS)", "bedrock-runtime-fips.*.amazonaws.com"},
	{"Moonshot", "api.moonshot.ai"},
	{"Moonshot (China)", "api.moonshot.cn"},
	{"Kimi Code", "api.kimi.com"},
	{"Qwen DashScope (China)", "dashscope.aliyuncs.com"},
	{"Qwen DashScope (international)", "dashscope-intl.aliyuncs.com"},
	{"Qwen DashScope (US)", "dashscope-us.aliyuncs.com"},
	{"Qwen (qwen-code's OAuth models)", "portal.qwen.ai"},
	{"OpenRouter", "openrouter.ai"},
	{"xAI", "api.x.ai"},
	{"Mistral", "api.mistral.ai"},
	{"Mistral Codestral", "codestral.mistral.ai"},
	{"DeepSeek", "api.deepseek.com"},
	{"Groq", "api.groq.com"},
	{"Together", "api.together.xyz"},
	{"Together", "api.together.ai"},
	{"Fireworks", "api.fireworks.ai"},
	{"Cerebras", "api.cerebras.ai"},
	{"GitHub Copilot", "api.githubcopilot.com"},
	{"GitHub Copilot (plans)", "api.*.githubcopilot.com"},
	{"GitHub Copilot (older proxy)", "copilot-proxy.githubusercontent.com"},
	{"GitHub Models", "models.github.ai"},
	{"Cline's gateway", "api.cline.bot"},
	{"Kilo Code's gateway", "api.kilo.ai"},
	{"Kilo Code's gateway (older)", "kilocode.ai"},
	{"Kilo Code's gateway (older)", "api.kilocode.ai"},
	{"opencode Zen", "opencode.ai"},
	{"Zhipu Z.ai", "api.z.ai"},
	{"Zhipu BigModel", "open.bigmodel.cn"},
	{"MiniMax", "api.minimax.io"},
	{"MiniMax (China)", "api.minimaxi.com"},
	{"Perplexity", "api.perplexity.ai"},
	{"Cohere", "api.cohere.com"},
	{"Cohere", "api.cohere.ai"},
	{"Hugging Face Inference", "router.huggingface.co"},
	{"NVIDIA NIM", "integrate.api.nvidia.com"},
	{"Vercel AI Gateway", "ai-gateway.vercel.sh"},
	{"SambaNova", "api.sambanova.ai"},
	{"Novita", "api.novita.ai"},
	{"Baseten", "inference.baseten.co"},
	{"Ollama Cloud", "ollama.com"},
	{"Venice", "api.venice.ai"},
	{"Requesty", "router.requesty.ai"},
}

// HostSet decides which hosts the forward proxy intercepts: the provider
// table and the hosts added by --intercept-host.
type HostSet struct {
	extra []string
}

// NewHostSet is the provider table plus extra (names or patterns).
func NewHostSet(extra []string) *HostSet {
	hs := &HostSet{}
	for _, h := range extra {
		if h = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), ".")); h != "" {
			hs.extra = append(hs.extra, h)
		}
	}
	return hs
}

// Provider is the name of the provider host belongs to ("" when it is not
// intercepted; "--intercept-host" for a host added by the flag).
func (hs *HostSet) Provider(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" {
		return ""
	}
	for _, p := range ProviderHosts {
		if hostMatch(p.Pattern, host) {
			return p.Provider
		}
	}
	if hs != nil {
		for _, p := range hs.extra {
			if hostMatch(p, host) {
				return "--intercept-host"
			}
		}
	}
	return ""
}

// hostMatch reports whether host fits pattern (a name, or * for any run
// of characters, which path.Match gives: host names hold no slash).
func hostMatch(pattern, host string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == host
	}
	ok, err := path.Match(pattern, host)
	return err == nil && ok
}
