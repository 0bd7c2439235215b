package audit

import (
	"sync"

	"github.com/wirelens/wirelens/wire/redact"
)

// SharedSecrets is a memo of the credentials found in texts, safe for
// concurrent use: the auditors of a batch, one a goroutine, share one, so
// that a text two inputs carry (the same tool result in two transcripts of
// a folder, audited on two cores) is searched for secrets once, not once
// an auditor. The secrets it gives are shared: read, never written.
// Bounded: past sharedSecretsMax texts it starts again empty.
type SharedSecrets struct {
	mu sync.Mutex
	m  map[uint64]sharedSecret
}

type sharedSecret struct {
	text    string
	secrets []redact.Secret
}

const sharedSecretsMax = 1 << 16

// NewSharedSecrets is an empty memo.
func NewSharedSecrets() *SharedSecrets { return &SharedSecrets{m: map[uint64]sharedSecret{}} }

// find is redact.FindSecrets(text), through the memo; h is the text's
// wire.HashText.
func (s *SharedSecrets) find(text string, h uint64) []redact.Secret {
	s.mu.Lock()
	e, ok := s.m[h]
	s.mu.Unlock()
	if ok && e.text == text {
		return e.secrets
	}
	found := redact.FindSecrets(text)
	if ok {
		return found // another text of the same hash: not kept
	}
	s.mu.Lock()
	if len(s.m) >= sharedSecretsMax {
		clear(s.m)
	}
	s.m[h] = sharedSecret{text: text, secrets: found}
	s.mu.Unlock()
	return found
}
