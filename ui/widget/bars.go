package widget

// The Cache view's bars: how much of a request's prefix the prompt cache
// reuses, and the stacked bar of its categories (wire/breakdown's groups),
// as long as the request against the longest of the session, so the rows
// show how each category grows.

import (
	"strings"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire/breakdown"
)

// CacheBar draws a step's tokens in w cells as `cache` does: predicted
// cached (█), shared with the earlier request but not cached (▒), new (░).
func CacheBar(st *themes.Styles, row *diff.Step, w int) string {
	total := max(1, row.TotalTokens)
	shared := min(max(row.PrefixTokens, 0), total)
	cached := min(max(row.Prediction.Cached, 0), shared)
	c, s := cached*w/total, shared*w/total
	if cached > 0 && c == 0 {
		c = 1
	}
	if shared > cached && s == c && s < w {
		s = c + 1
	}
	s = max(s, c)
	return st.TextTrusted.Render(strings.Repeat("█", c)) + st.Muted.Render(strings.Repeat("▒", s-c)) +
		st.Removed.Render(strings.Repeat("░", w-s))
}

// ContextBar draws a request's categories, tokens of each group in the order
// of breakdown.Groups, in width cells scaled to longest tokens: each cell the
// letter of its group, styled by the group's trust.
func ContextBar(st *themes.Styles, tokens []int, longest, width int) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	for _, run := range breakdown.Bar(tokens, longest, width) {
		g := groupOfLetter(run[:1])
		b.WriteString(groupStyle(st, g).Render(run))
		used += len(run)
	}
	return b.String() + strings.Repeat(" ", max(0, width-used))
}

// groupOfLetter is the group a bar letter stands for.
func groupOfLetter(l string) breakdown.Group {
	for _, g := range breakdown.Groups {
		if g.Letter() == l {
			return g
		}
	}
	return breakdown.GroupOther
}

// groupStyle colours a group by the trust of its text.
func groupStyle(st *themes.Styles, g breakdown.Group) interface{ Render(...string) string } {
	switch g {
	case breakdown.GroupHostRules, breakdown.GroupTools, breakdown.GroupHostFacts:
		return st.TextTrusted
	case breakdown.GroupUser:
		return st.TextUser
	case breakdown.GroupModel, breakdown.GroupReasoning:
		return st.TextModel
	case breakdown.GroupOther:
		return st.Muted
	}
	return st.TextUntrusted
}
