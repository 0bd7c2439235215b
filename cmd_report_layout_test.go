package main

import (
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReportLayout: single-request builds say "nothing to compare" for
// the reuse ratio (not 0.0% beside 0.0% and +0.0 pt); the HTML breaks long
// words only where a line would overflow (overflow-wrap: anywhere, no
// word-break: break-all that cut prose mid-word; a cell's words stay whole,
// code breaks anywhere), a table wider than the page scrolls inside its
// column instead of widening the page (390 px), and it has a viewport for
// phones. With Chromium installed, the page is drawn at 1280 and 390 px
// wide and the screenshots kept in the test's artefacts
// ($WIRELENS_ARTEFACTS, else a temporary folder) for a person to look at,
// and the findings table is measured in the page's DOM (measureFindings):
// at both widths it keeps within its column and the page does not run off
// the window; at 1280 px nothing of it is hidden (no scrolling inside it).
// Without Chromium that part is skipped, saying so.
func TestReportLayout(t *testing.T) {
	legacy, isolated := demoBuilds(t)
	_, md, _ := runCLI(t, "", "report", "--before", legacy, "--after", isolated)
	if !strings.Contains(md, "| reuse ratio | nothing to compare | nothing to compare |  |") || strings.Contains(md, "0\\.0% | 0\\.0%") {
		t.Errorf("single-request builds' reuse ratio:\n%s", md)
	}
	code, page, stderr := runCLI(t, "", "report", "--before", legacy, "--after", isolated, "--format", "html")
	if code != 0 {
		t.Fatalf("html: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"overflow-wrap:anywhere", "overflow-wrap:break-word", "display:block;overflow-x:auto", `name="viewport"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
	if strings.Contains(page, "break-all") {
		t.Error("the HTML still breaks prose mid-word (word-break: break-all)")
	}
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		t.Skip("Chromium is not installed here (apt-get install chromium): the page is not drawn or measured")
	}
	dir := os.Getenv("WIRELENS_ARTEFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	html := filepath.Join(dir, "report.html")
	if err := os.WriteFile(html, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, width := range []string{"1280", "390"} {
		shot := filepath.Join(dir, "report-"+width+".png")
		cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
			"--window-size="+width+",2000", "--screenshot="+shot, "file://"+html)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("chromium at %s px: %v\n%s", width, err, out)
		}
		if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
			t.Fatalf("no screenshot at %s px: %v", width, err)
		}
		t.Logf("screenshot at %s px: %s", width, shot)
		m := measureFindings(t, chromium, page, width)
		t.Logf("at %s px: %+v", width, m)
		if strconv.Itoa(m.Window) != width {
			t.Fatalf("the page was laid out %d px wide, not %s", m.Window, width)
		}
		if m.Right > m.ColumnRight+0.5 || m.PageWidth > m.Window {
			t.Errorf("at %s px the findings table runs out of its column: %+v", width, m)
		}
		if width == "1280" && m.ScrollWidth > m.ClientWidth+1 {
			t.Errorf("at 1280 px the findings table hides %d px of its cells (it scrolls inside its column): %+v",
				m.ScrollWidth-m.ClientWidth, m)
		}
	}
}

// findingsBox is the findings table as Chromium lays it out: its right edge
// and its column's (the parent's content box), the width of its cells and
// of its box, the page's scroll width and the window's.
type findingsBox struct {
	Right, ColumnRight        float64
	ScrollWidth, ClientWidth  int
	PageWidth, Window, Tables int
}

// measureFindings loads the page in headless Chromium at width px with a
// script that measures the table under the Findings heading and writes the
// figures into the DOM, which --dump-dom gives back.
func measureFindings(t *testing.T, chromium, page, width string) findingsBox {
	t.Helper()
	const script = `<script>(function(){var t=document.getElementById("findings");` +
		`while(t&&t.tagName!=="TABLE")t=t.nextElementSibling;var o={Tables:t?1:0};` +
		`if(t){var p=t.parentElement,cs=getComputedStyle(p),r=p.getBoundingClientRect();` +
		`o.Right=t.getBoundingClientRect().right;o.ColumnRight=r.right-parseFloat(cs.paddingRight)-parseFloat(cs.borderRightWidth);` +
		`o.ScrollWidth=t.scrollWidth;o.ClientWidth=t.clientWidth}` +
		`o.PageWidth=document.documentElement.scrollWidth;o.Window=window.innerWidth;` +
		`var d=parent.document,e=d.createElement("pre");e.id="wl-measure";e.textContent=JSON.stringify(o);d.body.appendChild(e)})()</script>`
	// The report forbids scripts (its Content-Security-Policy): the copy
	// measured here, the test's own, goes without it.
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`)
	if !csp.MatchString(page) {
		t.Fatal("the HTML has no Content-Security-Policy")
	}
	page = csp.ReplaceAllString(page, "")
	i := strings.LastIndex(page, "</body>")
	if i < 0 {
		t.Fatal("the HTML has no </body>")
	}
	// Headless Chromium's window is at least 500 px wide: the page is laid
	// out in a frame of the width asked for (srcdoc, so that its script may
	// write into the frame's parent, which --dump-dom gives back).
	frame := `<!doctype html><html><body style="margin:0"><iframe style="border:0" width="` + width +
		`" height="2000" srcdoc="` + html.EscapeString(page[:i]+script+page[i:]) + `"></iframe></body></html>`
	file := filepath.Join(t.TempDir(), "measure.html")
	if err := os.WriteFile(file, []byte(frame), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--window-size=1400,2100", "--dump-dom", "file://"+file)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom at %s px: %v", width, err)
	}
	mm := regexp.MustCompile(`<pre id="wl-measure">([^<]*)</pre>`).FindSubmatch(out)
	if mm == nil {
		t.Fatalf("at %s px the measuring script wrote nothing:\n%.2000s", width, out)
	}
	var m findingsBox
	if err := json.Unmarshal([]byte(html.UnescapeString(string(mm[1]))), &m); err != nil || m.Tables != 1 || m.Window == 0 {
		t.Fatalf("at %s px: measure %s: %v (no findings table?)", width, mm[1], err)
	}
	return m
}
