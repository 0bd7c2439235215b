package main

// check --cache: the rule unstable-prefix, from the cache analysis (diff.Gate).

import "github.com/wirelens/wirelens/diff"

// newCacheGate is the gate of check --cache, nil without it.
func newCacheGate(f checkFlags) (*diff.Gate, error) {
	if !f.cache {
		return nil, nil
	}
	l, err := diff.ParseLimit(f.maxReprocessed)
	if err != nil {
		return nil, usageError("--max-reprocessed: %v", err)
	}
	return &diff.Gate{Limit: l}, nil
}
