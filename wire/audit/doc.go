// Package audit holds the rules of `wirelens check`: it reads a request's
// classified segments and reports every trust-boundary problem (workspace
// text with host authority, tag breakouts, hazards left unescaped, changing
// values in the cached prefix) as a Finding with its rule, severity and place.
package audit
