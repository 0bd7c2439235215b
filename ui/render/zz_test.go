package render
import ("testing";"strings";"github.com/wirelens/wirelens/themes";"github.com/wirelens/wirelens/ui/cells")
func TestZZ(t *testing.T){
	text := strings.Repeat("a&lt;\u202e b\x1b[31m rm\u200b ", 10)
	st := themes.New(themes.Dark)
	c := Content{Bracket: cells.Width(st.MarkOpen + st.MarkClose)}
	c.Set(0, "k", text, nil, nil, false, 17, "")
	rows := c.wrap(0, -1)
	for i := range rows { e := len(text); if i+1<len(rows) {e=rows[i+1]}; t.Logf("%d %q", rows[i], text[rows[i]:e]) }
	for _, r := range c.rowsFrom(40) { t.Logf("%v %q", r, text[r[0]:r[1]]) }
}
