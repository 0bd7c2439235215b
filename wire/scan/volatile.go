package scan

import "strings"

// VolatileKind names a kind of value that changes from one request to the
// next and so splits a prompt cache when it sits inside the cached prefix.
type VolatileKind string

// Volatile kinds, as they appear in `cache --json` ("volatile") and in the
// volatile-in-prefix finding.
const (
	// VolatileTimestamp is a date with a time of day (ISO 8601, RFC 3339,
	// RFC 1123 / 2822 / 850, asctime, the Unix date(1) layout, a numeric
	// or locale date followed by a time), a time of day with seconds, or
	// an epoch in seconds or milliseconds after a label that names a time.
	VolatileTimestamp VolatileKind = "timestamp"
	// VolatileDate is a calendar date without a time of day: ISO and
	// year-first ("2025/5/29", "2025. 5. 29.", "2025年5月29日"), numeric
	// day and month with a four-digit year ("5/29/2025", "29.05.2025"), or
	// with month and weekday names in English and the locales of
	// localMonths ("Thursday, May 29, 2025", "29 de mayo de 2025").
	VolatileDate VolatileKind = "date"
	// VolatileUUID is a UUID in its 8-4-4-4-12 hex form.
	VolatileUUID VolatileKind = "uuid"
	// VolatileRequestID is a provider or tracing id (req_..., msg_...,
	// chatcmpl-..., or the value after "request id:", "session id:" ...).
	VolatileRequestID VolatileKind = "request-id"
	// VolatileHexID is a long hexadecimal id (a commit hash, a digest).
	VolatileHexID VolatileKind = "hex-id"
	// VolatileCounter is a number after a counting word ("turn 7",
	// "request_count=12", "step: 3"), or a run of digits a break falls in.
	VolatileCounter VolatileKind = "counter"
)

// Volatile is one changing value found in a text: Text[Start:End] (byte
// offsets) is a value of Kind.
type Volatile struct {
	Start int
	End   int
	Kind  VolatileKind
	// Current is set on a timestamp or date introduced as the present
	// ("Today's date:", "The current time is", "now=", "当前时间"): such a
	// value changes with every request. A date without it may be a fixed
	// one (a spec version, a release date).
	Current bool
}

// FindVolatile finds the changing values in text: timestamps, dates, UUIDs,
// request ids, long hex ids and counters, in order of their start, never
// overlapping. It runs in time linear in len(text) and never panics on any
// input (invalid UTF-8 included).
func FindVolatile(text string) []Volatile {
	return findVolatileIn(text, 0, len(text), nil)
}

// VolatileAt returns the changing value of text that covers byte offset off
// (Start <= off < End), if any. It looks only at a window around off, so it
// is cheap on large texts.
func VolatileAt(text string, off int) (Volatile, bool) {
	if off < 0 || off > len(text) {
		return Volatile{}, false
	}
	from := off - volatileMaxLen
	if from < 0 {
		from = 0
	}
	to := off + 1
	if to > len(text) {
		to = len(text)
	}
	for _, v := range findVolatileIn(text, from, to, nil) {
		if v.Start <= off && off < v.End {
			return v, true
		}
	}
	return Volatile{}, false
}

// volatileMaxLen bounds how far before an offset a value covering it can
// start (the longest date layouts and labelled ids are well under it).
const volatileMaxLen = 160

// findVolatileIn scans start positions in [from, to) of s (values may end
// past to) and appends what it finds to out.
func findVolatileIn(s string, from, to int, out []Volatile) []Volatile {
	for i := from; i < to; {
		c := s[i]
		if !isWordByte(c) || (i > 0 && isWordByte(s[i-1])) {
			i++
			continue
		}
		if v, ok := matchAt(s, i); ok {
			if v.Kind == VolatileTimestamp || v.Kind == VolatileDate {
				v.Current = currentBefore(s, v.Start)
			}
			out = append(out, v)
			if v.End <= i {
				i++
			} else {
				i = v.End
			}
			continue
		}
		// Skip the rest of this word: no value starts inside a word.
		i++
		for i < to && isWordByte(s[i]) {
			i++
		}
	}
	return out
}

// nowWords introduce the present time or date.
var nowWords = []string{"today", "now", "current", "date", "time", "timestamp", "clock",
	"当前", "今天", "现在", "时间", "日期"}

// currentBefore reports whether one of nowWords ends shortly before
// position i (within the same line).
func currentBefore(s string, i int) bool {
	from := max(0, i-48)
	win := s[from:i]
	if nl := strings.LastIndexByte(win, '\n'); nl >= 0 {
		win = win[nl+1:]
	}
	var buf [48]byte
	low := appendLower(buf[:0], win)
	for _, w := range nowWords {
		for k := 0; k+len(w) <= len(low); {
			j := strings.Index(string(low[k:]), w)
			if j < 0 {
				break
			}
			at := k + j
			// A whole word for the ASCII words ("now", not "known").
			if w[0] < 0x80 && ((at > 0 && isAlpha(low[at-1])) || (at+len(w) < len(low) && isAlpha(low[at+len(w)]) && low[at+len(w)] != 's')) {
				k = at + 1
				continue
			}
			return true
		}
	}
	return false
}

// matchAt tries every pattern at word start i.
func matchAt(s string, i int) (Volatile, bool) {
	c := s[i]
	if end, ok := uuidAt(s, i); ok {
		return Volatile{Start: i, End: end, Kind: VolatileUUID}, true
	}
	if IsDigit(c) {
		if end, timed, ok := isoDateAt(s, i); ok {
			return Volatile{Start: i, End: end, Kind: dateKind(timed)}, true
		}
		if end, timed, ok := dayMonthYearAt(s, i); ok {
			return Volatile{Start: i, End: end, Kind: dateKind(timed)}, true
		}
		if end, timed, ok := numericDateAt(s, i); ok {
			return Volatile{Start: i, End: end, Kind: dateKind(timed)}, true
		}
		if end, ok := timeAt(s, i, true); ok {
			return Volatile{Start: i, End: end, Kind: VolatileTimestamp}, true
		}
		if end, ok := epochAt(s, i); ok {
			return Volatile{Start: i, End: end, Kind: VolatileTimestamp}, true
		}
	} else {
		if end, timed, ok := namedDateAt(s, i); ok {
			return Volatile{Start: i, End: end, Kind: dateKind(timed)}, true
		}
		if end, ok := prefixedIDAt(s, i); ok {
			return Volatile{Start: i, End: end, Kind: VolatileRequestID}, true
		}
		if v, ok := keywordAt(s, i); ok {
			return v, true
		}
	}
	if end, ok := hexAt(s, i); ok {
		return Volatile{Start: i, End: end, Kind: VolatileHexID}, true
	}
	return Volatile{}, false
}

func dateKind(timed bool) VolatileKind {
	if timed {
		return VolatileTimestamp
	}
	return VolatileDate
}

func IsDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isHex(c byte) bool   { return IsDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
func isWordByte(c byte) bool {
	return IsDigit(c) || isAlpha(c) || c == '_'
}

// endsWord reports whether position j ends a word (end of text or a
// non-word byte).
func endsWord(s string, j int) bool { return j >= len(s) || !isWordByte(s[j]) }

// digitsAt reads exactly n digits at j and returns their value.
func digitsAt(s string, j, n int) (int, bool) {
	if j+n > len(s) {
		return 0, false
	}
	v := 0
	for k := j; k < j+n; k++ {
		if !IsDigit(s[k]) {
			return 0, false
		}
		v = v*10 + int(s[k]-'0')
	}
	return v, true
}

// digitRun reads 1 to max digits at j.
func digitRun(s string, j, max int) (val, end int, ok bool) {
	end = j
	for end < len(s) && end-j < max && IsDigit(s[end]) {
		val = val*10 + int(s[end]-'0')
		end++
	}
	if end == j || (end < len(s) && IsDigit(s[end])) {
		return 0, j, false
	}
	return val, end, true
}

// uuidAt matches 8-4-4-4-12 hex digits.
func uuidAt(s string, i int) (int, bool) {
	const n = 36
	if i+n > len(s) {
		return 0, false
	}
	for k := 0; k < n; k++ {
		c := s[i+k]
		switch k {
		case 8, 13, 18, 23:
			if c != '-' {
				return 0, false
			}
		default:
			if !isHex(c) {
				return 0, false
			}
		}
	}
	if !endsWord(s, i+n) {
		return 0, false
	}
	return i + n, true
}

// isoDateAt matches a year-first date: YYYY-MM-DD and YYYY/MM/DD (the
// month and day may have one digit: "2025/5/29", as ja-JP and zh-CN write
// it), YYYY. M. D. (ko-KR, hu-HU), YYYY年M月D日 and YYYY년 M월 D일, with an
// optional time after "T" or a space.
func isoDateAt(s string, i int) (end int, timed, ok bool) {
	y, ok := digitsAt(s, i, 4)
	if !ok || y < 1900 || y > 2199 {
		return 0, false, false
	}
	j := i + 4
	switch {
	case j < len(s) && (s[j] == '-' || s[j] == '/'):
		sep := s[j]
		m, e1, ok1 := digitRun(s, j+1, 2)
		if !ok1 || e1 >= len(s) || s[e1] != sep {
			return 0, false, false
		}
		d, e2, ok2 := digitRun(s, e1+1, 2)
		if !ok2 || m < 1 || m > 12 || d < 1 || d > 31 {
			return 0, false, false
		}
		end = e2
	case strings.HasPrefix(s[j:], ". "):
		// "2025. 5. 29." (ko-KR) and "2025. 05. 29." (hu-HU): the spaces
		// tell it from a dotted version.
		m, e1, ok1 := digitRun(s, j+2, 2)
		if !ok1 || m < 1 || m > 12 || !strings.HasPrefix(s[e1:], ". ") {
			return 0, false, false
		}
		d, e2, ok2 := digitRun(s, e1+2, 2)
		if !ok2 || d < 1 || d > 31 {
			return 0, false, false
		}
		end = e2
		if end < len(s) && s[end] == '.' {
			end++
		}
		if e, ok := timeAfter(s, end); ok {
			return e, true, true
		}
		return end, false, true
	case strings.HasPrefix(s[j:], "年"), strings.HasPrefix(s[j:], "년"):
		return cjkDateAt(s, j)
	default:
		return 0, false, false
	}
	if end+1 < len(s) && (s[end] == 'T' || s[end] == ' ' || s[end] == 't') && IsDigit(s[end+1]) {
		if e, ok := timeAt(s, end+1, false); ok {
			return e, true, true
		}
	}
	// "2025/5/29, 14:03:09" and the like.
	if end < len(s) && s[end] == ',' {
		if e, ok := timeAfter(s, end); ok {
			return e, true, true
		}
	}
	if !endsWord(s, end) {
		return 0, false, false
	}
	return end, false, true
}

// cjkDateAt reads the rest of YYYY年M月D日 (Chinese, Japanese) or
// YYYY년 M월 D일 (Korean) from j, just after the year, with the weekday
// that may follow it ("木曜日", "星期四", "목요일") and a time.
func cjkDateAt(s string, j int) (end int, timed, ok bool) {
	year, month, day := "年", "月", "日"
	space := false
	if strings.HasPrefix(s[j:], "년") {
		year, month, day, space = "년", "월", "일", true
	}
	next := func(k int) int {
		if space && k < len(s) && s[k] == ' ' {
			return k + 1
		}
		return k
	}
	j = next(j + len(year))
	m, e1, ok1 := digitRun(s, j, 2)
	if !ok1 || m < 1 || m > 12 || !strings.HasPrefix(s[e1:], month) {
		return 0, false, false
	}
	d, e2, ok2 := digitRun(s, next(e1+len(month)), 2)
	if !ok2 || d < 1 || d > 31 {
		return 0, false, false
	}
	end = e2
	if strings.HasPrefix(s[end:], day) {
		end += len(day)
		end = cjkWeekdayAfter(s, end)
	}
	k := end
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k < len(s) && IsDigit(s[k]) {
		if e, ok := timeAt(s, k, false); ok {
			return e, true, true
		}
	}
	return end, false, true
}

// cjkWeekdayAfter reads a weekday written after a CJK date ("木曜日",
// "星期四", "周四", " 목요일", "(木)") and returns its end, or j.
func cjkWeekdayAfter(s string, j int) int {
	const ja, ko, zh = "月火水木金土日", "월화수목금토일", "一二三四五六日天"
	oneOf := func(k int, set string) (int, bool) {
		for _, r := range set {
			if strings.HasPrefix(s[k:], string(r)) {
				return k + len(string(r)), true
			}
		}
		return k, false
	}
	if k, ok := oneOf(j, ja); ok && strings.HasPrefix(s[k:], "曜日") {
		return k + len("曜日")
	}
	for _, p := range []string{"星期", "礼拜", "周"} {
		if strings.HasPrefix(s[j:], p) {
			if k, ok := oneOf(j+len(p), zh); ok {
				return k
			}
		}
	}
	if k := skipSpace(s, j); k < len(s) {
		if e, ok := oneOf(k, ko); ok && strings.HasPrefix(s[e:], "요일") {
			return e + len("요일")
		}
	}
	if strings.HasPrefix(s[j:], "(") || strings.HasPrefix(s[j:], "（") {
		k := j + 1
		if s[j] != '(' {
			k = j + len("（")
		}
		if e, ok := oneOf(k, ja); ok {
			if strings.HasPrefix(s[e:], ")") {
				return e + 1
			}
			if strings.HasPrefix(s[e:], "）") {
				return e + len("）")
			}
		}
	}
	return j
}

// numericDateAt matches a day-and-month date with a four-digit year last:
// "5/29/2025" (en-US, and Claude Code's "Today's date:"), "29/05/2025"
// (en-GB, fr, it, pt-BR), "29.05.2025" and "29.5.2025" (de, ru, pl, tr),
// "29. 5. 2025" (cs), "29-5-2025" (nl), with an optional time after. Either
// order of day and month is taken, as long as one of them can be a month.
// A two-digit year ("5/29/25") is taken only after a word for the present
// ("Today's date:"): elsewhere it reads as well as a fraction or a version.
// A value that continues a dotted or slashed run ("1.2.3.2025",
// "a/5/29/2025/x") is not a date.
func numericDateAt(s string, i int) (end int, timed, ok bool) {
	if i >= 2 && (s[i-1] == '.' || s[i-1] == '/' || s[i-1] == '-') && IsDigit(s[i-2]) {
		return 0, false, false
	}
	a, j, ok := digitRun(s, i, 2)
	if !ok || j >= len(s) || (s[j] != '/' && s[j] != '.' && s[j] != '-') {
		return 0, false, false
	}
	sep := s[j]
	field := func(k int) int { // past a separator and, after a dot, a space
		k++
		if sep == '.' && k < len(s) && s[k] == ' ' {
			k++
		}
		return k
	}
	b, k, ok := digitRun(s, field(j), 2)
	if !ok || k >= len(s) || s[k] != sep {
		return 0, false, false
	}
	if a < 1 || b < 1 || !((a <= 12 && b <= 31) || (a <= 31 && b <= 12)) {
		return 0, false, false
	}
	yAt := field(k)
	y, e, ok := digitRun(s, yAt, 4)
	switch {
	case ok && e-yAt == 4 && y >= 1900 && y <= 2199:
	case ok && e-yAt == 2 && currentBefore(s, i):
	default:
		return 0, false, false
	}
	end = e
	if end+1 < len(s) && (s[end] == '.' || s[end] == '/' || s[end] == '-') && IsDigit(s[end+1]) {
		return 0, false, false
	}
	if !endsWord(s, end) {
		return 0, false, false
	}
	if t, ok := timeAfter(s, end); ok {
		return t, true, true
	}
	return end, false, true
}

// timeAt matches HH:MM[:SS[.frac]] with an optional AM/PM and zone. When
// standalone is set (a time with no date before it), a time without seconds
// is accepted only with a zone or AM/PM, so "see 3:16" is not a timestamp.
func timeAt(s string, i int, standalone bool) (int, bool) {
	h, j, ok := digitRun(s, i, 2)
	if !ok || h > 23 || j >= len(s) || s[j] != ':' {
		return 0, false
	}
	m, ok := digitsAt(s, j+1, 2)
	if !ok || m > 59 {
		return 0, false
	}
	j += 3
	seconds := false
	if j < len(s) && s[j] == ':' {
		if sec, ok := digitsAt(s, j+1, 2); ok && sec <= 60 {
			j += 3
			seconds = true
			if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && IsDigit(s[j+1]) {
				j++
				for j < len(s) && IsDigit(s[j]) {
					j++
				}
			}
		}
	}
	if j < len(s) && IsDigit(s[j]) {
		return 0, false
	}
	end, qualified := zoneAt(s, j)
	if standalone && !seconds && !qualified {
		return 0, false
	}
	if !endsWord(s, end) {
		return 0, false
	}
	return end, true
}

// zoneAt reads what may follow a time: " AM"/" PM", then "Z", "+HH:MM",
// "+HHMM", "+HH", or a space and a zone abbreviation (UTC, GMT, PST, CEST,
// ...), optionally followed by an offset ("UTC+8"). It returns the end and
// whether anything was read.
func zoneAt(s string, j int) (int, bool) {
	got := false
	if k := skipSpace(s, j); k+1 < len(s) && (s[k]|0x20 == 'a' || s[k]|0x20 == 'p') {
		if s[k+1]|0x20 == 'm' && endsWord(s, k+2) {
			j, got = k+2, true
		} else if k+3 < len(s) && s[k+1] == '.' && s[k+2]|0x20 == 'm' && s[k+3] == '.' {
			j, got = k+4, true
		}
	}
	if j < len(s) && s[j] == 'Z' && endsWord(s, j+1) {
		return j + 1, true
	}
	if e, ok := offsetAt(s, j); ok {
		return e, true
	}
	if k := skipSpace(s, j); k > j || got {
		if e, ok := zoneNameAt(s, k); ok {
			if e2, ok := offsetAt(s, e); ok {
				return e2, true
			}
			return e, true
		}
		if k > j {
			if e, ok := offsetAt(s, k); ok {
				return e, true
			}
		}
	}
	return j, got
}

func skipSpace(s string, j int) int {
	if j < len(s) && s[j] == ' ' {
		return j + 1
	}
	return j
}

// offsetAt reads +HH:MM, +HHMM or +HH.
func offsetAt(s string, j int) (int, bool) {
	if j >= len(s) || (s[j] != '+' && s[j] != '-') {
		return 0, false
	}
	hh, ok := digitsAt(s, j+1, 2)
	if !ok || hh > 14 {
		return 0, false
	}
	k := j + 3
	if k < len(s) && s[k] == ':' {
		if mm, ok := digitsAt(s, k+1, 2); ok && mm < 60 {
			k += 3
		} else {
			return 0, false
		}
	} else if mm, ok := digitsAt(s, k, 2); ok && mm < 60 {
		k += 2
	}
	if k < len(s) && IsDigit(s[k]) {
		return 0, false
	}
	return k, true
}

// zoneNameAt reads UTC, GMT or an upper-case abbreviation of 2 to 5
// letters ending in T (PST, CEST, JST, ...).
func zoneNameAt(s string, j int) (int, bool) {
	k := j
	for k < len(s) && k-j < 6 && s[k] >= 'A' && s[k] <= 'Z' {
		k++
	}
	if !endsWord(s, k) || k-j < 2 || k-j > 5 {
		return 0, false
	}
	name := s[j:k]
	if name == "UTC" || name == "GMT" || name == "UT" || name[len(name)-1] == 'T' {
		return k, true
	}
	return 0, false
}

// epochAt matches a Unix time in seconds (10 digits, 2001 to 2036, an
// optional fraction) or milliseconds (13 digits) in a time context: after
// a word for the present or a label that names a time (epochContext). A
// bare run of ten digits is as likely a phone number or an id.
func epochAt(s string, i int) (int, bool) {
	if i > 0 && (s[i-1] == '.' || s[i-1] == ',') {
		return 0, false
	}
	j := i
	for j < len(s) && IsDigit(s[j]) {
		j++
	}
	n := j - i
	if n != 10 && n != 13 {
		return 0, false
	}
	if s[i] != '1' && !(s[i] == '2' && s[i+1] == '0') {
		return 0, false
	}
	if n == 10 && j+1 < len(s) && s[j] == '.' && IsDigit(s[j+1]) {
		j++
		for j < len(s) && IsDigit(s[j]) {
			j++
		}
	}
	if !endsWord(s, j) || !epochContext(s, i) {
		return 0, false
	}
	return j, true
}

// epochWords, found in the label just before a number, say it is a time:
// "epoch 1764558087123", "ts=1764558087", "created_at": 1764558087,
// "expiresAt: ...". The words of nowWords count too ("timestamp: ...").
var epochWords = []string{"time", "date", "epoch", "unix", "stamp", "clock", "now", "expir",
	"created", "updated", "modified", "since", "until", "when"}

// epochContext reports whether the number at i follows a label that names
// a time, or a word for the present on its line.
func epochContext(s string, i int) bool {
	// The label: skip up to four separators back, then read the word.
	k := i
	for n := 0; k > 0 && n < 4 && strings.IndexByte(" :=\"'>\t", s[k-1]) >= 0; n++ {
		k--
	}
	e := k
	for k > 0 && e-k < 32 && (isWordByte(s[k-1]) || s[k-1] == '-') {
		k--
	}
	if e > k {
		label := s[k:e]
		var buf [32]byte
		low := string(appendLower(buf[:0], label))
		if low == "ts" || strings.HasSuffix(low, "_ts") || strings.HasSuffix(low, "-ts") ||
			strings.HasSuffix(low, "_at") || strings.HasSuffix(label, "At") {
			return true
		}
		for _, w := range epochWords {
			if strings.Contains(low, w) {
				return true
			}
		}
	}
	return currentBefore(s, i)
}

// weekdays and months hold the full, three-letter (and "sept") lower-case names.
var weekdays, months = nameSet("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
	"sunday"), nameSet("january", "february", "march", "april", "may", "june", "july", "august",
	"september", "sept", "october", "november", "december")

func nameSet(names ...string) map[string]bool {
	m := make(map[string]bool, 2*len(names))
	for _, n := range names {
		m[n] = true
		m[n[:3]] = true
	}
	return m
}

// nameAt matches a full or three-letter weekday or month name at j
// (upper-case first letter), ending a word, and returns its end.
func nameAt(s string, j int, names map[string]bool) (int, bool) {
	if j >= len(s) || s[j] < 'A' || s[j] > 'Z' {
		return 0, false
	}
	k := j + 1
	for k < len(s) && isAlpha(s[k]) && k-j <= 9 {
		k++
	}
	if k-j < 3 || k-j > 9 || (k < len(s) && isAlpha(s[k])) {
		return 0, false
	}
	var buf [10]byte
	if !names[string(appendLower(buf[:0], s[j:k]))] {
		return 0, false
	}
	return k, true
}

// sepAt skips ", " / " " / "," between date fields; it needs at least one.
func sepAt(s string, j int) (int, bool) {
	k := j
	if k < len(s) && s[k] == ',' {
		k++
	}
	if k < len(s) && s[k] == '.' {
		k++
	}
	for k < len(s) && s[k] == ' ' {
		k++
	}
	return k, k > j
}

// timeAfter reads an optional time after a date, with "at" or "," or a
// space between them.
func timeAfter(s string, j int) (int, bool) {
	k, ok := sepAt(s, j)
	if !ok {
		return j, false
	}
	if strings.HasPrefix(s[k:], "at ") {
		k += 3
	}
	if k < len(s) && IsDigit(s[k]) {
		if e, ok := timeAt(s, k, false); ok {
			return e, true
		}
	}
	return j, false
}

// yearAfter reads a separator and a four-digit year.
func yearAfter(s string, j int) (int, bool) {
	k, ok := sepAt(s, j)
	if !ok {
		return 0, false
	}
	y, ok := digitsAt(s, k, 4)
	if !ok || y < 1900 || y > 2199 || !endsWord(s, k+4) {
		return 0, false
	}
	return k + 4, true
}

// localMonths and localWeekdays hold, in lower case, the month names
// (with the genitive forms that follow a day: "29 maja", "29 мая") and the
// weekday names of the locales whose long dates put the day first:
// German, French, Spanish, Italian, Portuguese, Dutch, Polish, Swedish,
// Russian and Turkish, as Intl's toLocaleDateString writes them (Gemini
// CLI's "Today's date is ...").
var localMonths, localWeekdays = wordSet(
	"januar", "jänner", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember", // de
	"janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre", "octobre",
	"novembre", "décembre", // fr
	"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
	"setiembre", "octubre", "noviembre", "diciembre", // es
	"gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre", "ottobre",
	"dicembre", // it
	"janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro",
	"novembro", "dezembro", // pt
	"januari", "februari", "maart", "mei", "augustus", "december", // nl
	"augusti", "maj", // sv
	"stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia",
	"września", "października", "listopada", "grudnia", // pl
	"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
	"октября", "ноября", "декабря", // ru
	"ocak", "şubat", "Şubat", "mart", "nisan", "mayıs", "haziran", "temmuz", "ağustos",
	"eylül", "ekim", "kasım", "aralık", // tr
), wordSet(
	"montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag",
	"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
	"lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
	"lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica",
	"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
	"maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
	"poniedziałek", "wtorek", "czwartek", "piątek", "sobota", "niedziela",
	"måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag",
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// wordAt reads a word of letters at j (ASCII letters, any non-ASCII byte,
// and inner hyphens, as in "quinta-feira"), at most 24 bytes, and returns
// its lower case (ASCII letters only; the tables hold the rest as written)
// and its end.
func wordAt(s string, j int, buf []byte) ([]byte, int, bool) {
	k := j
	for k < len(s) && k-j <= 24 && (isAlpha(s[k]) || s[k] >= 0x80 ||
		(s[k] == '-' && k > j && k+1 < len(s) && isAlpha(s[k+1]))) {
		k++
	}
	if k == j || k-j > 24 || (k < len(s) && isWordByte(s[k])) {
		return nil, j, false
	}
	return appendLower(buf, s[j:k]), k, true
}

// monthWordAt matches a month name at j in any case: English (full or
// three letters, with an optional ".") or one of localMonths.
func monthWordAt(s string, j int) (int, bool) {
	var buf [32]byte
	w, k, ok := wordAt(s, j, buf[:0])
	if !ok || !(months[string(w)] || localMonths[string(w)]) {
		return 0, false
	}
	if len(w) == 3 && k < len(s) && s[k] == '.' {
		k++
	}
	return k, true
}

// dayMonthYearAt matches a day-first date: "29 Nov 2026", "29 November
// 2026 22:15:42 GMT", "29th of May 2025", "01-Dec-2026 03:21:27 GMT" (the
// cookie and RFC 850 layout), and the locale forms "29. Mai 2025", "29 de
// mayo de 2025", "29 мая 2025 г.".
func dayMonthYearAt(s string, i int) (end int, timed, ok bool) {
	d, j, ok := digitRun(s, i, 2)
	if !ok || d < 1 || d > 31 || j >= len(s) {
		return 0, false, false
	}
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if strings.HasPrefix(s[j:], suf) {
			j += 2
			break
		}
	}
	if j < len(s) && s[j] == '-' {
		// 01-Dec-2026, or 06-Nov-94 (RFC 850): a three-letter English
		// month between hyphens.
		k, ok := nameAt(s, j+1, months)
		if !ok || k-j != 4 || k >= len(s) || s[k] != '-' {
			return 0, false, false
		}
		y, e, ok := digitRun(s, k+1, 4)
		if !ok || !(e-k-1 == 2 || (e-k-1 == 4 && y >= 1900 && y <= 2199)) || !endsWord(s, e) {
			return 0, false, false
		}
		if t, ok := timeAfter(s, e); ok {
			return t, true, true
		}
		return e, false, true
	}
	if j < len(s) && s[j] == '.' {
		j++
	}
	if j >= len(s) || s[j] != ' ' {
		return 0, false, false
	}
	j++
	for _, link := range []string{"of ", "de "} {
		if strings.HasPrefix(s[j:], link) {
			j += len(link)
			break
		}
	}
	j, ok = monthWordAt(s, j)
	if !ok {
		return 0, false, false
	}
	if strings.HasPrefix(s[j:], " de ") {
		j += len(" de")
	}
	j, ok = yearAfter(s, j)
	if !ok {
		return 0, false, false
	}
	if strings.HasPrefix(s[j:], " г.") {
		j += len(" г.")
	}
	if e, ok := timeAfter(s, j); ok {
		return e, true, true
	}
	return j, false, true
}

// namedDateAt matches dates that start with a weekday or a month name:
// RFC 1123 ("Sun, 29 Nov 2026 22:15:42 GMT"), the Unix date(1) and ANSI C
// layouts ("Sun Nov 29 22:15:42 UTC 2026"), and "November 29, 2026".
func namedDateAt(s string, i int) (end int, timed, ok bool) {
	j := i
	weekday := false
	if e, ok := weekdayAt(s, i); ok {
		weekday = true
		k, ok := sepAt(s, e)
		if !ok {
			return 0, false, false
		}
		if k < len(s) && IsDigit(s[k]) {
			if e, timed, ok := dayMonthYearAt(s, k); ok {
				return e, timed, true
			}
			return 0, false, false
		}
		j = k
	}
	e, ok := nameAt(s, j, months)
	if !ok {
		return 0, false, false
	}
	if e < len(s) && s[e] == '.' {
		e++
	}
	k := e
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k == e {
		return 0, false, false
	}
	d, k2, ok := digitRun(s, k, 2)
	if !ok || d < 1 || d > 31 {
		return 0, false, false
	}
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if strings.HasPrefix(s[k2:], suf) {
			k2 += 2
			break
		}
	}
	// "Nov 29, 2026" / "November 29 2026" [time]
	if y, ok := yearAfter(s, k2); ok {
		if e, ok := timeAfter(s, y); ok {
			return e, true, true
		}
		return y, false, true
	}
	// "Sun Nov 29 22:15:42 [UTC] 2026" (date(1), ANSI C)
	if t, ok := timeAfter(s, k2); ok {
		if y, ok := yearAfter(s, t); ok {
			return y, true, true
		}
		if weekday {
			return t, true, true
		}
	}
	return 0, false, false
}

// weekdayAt matches an English weekday name (capitalised, full or three
// letters) or one of localWeekdays in any case at j.
func weekdayAt(s string, j int) (int, bool) {
	if e, ok := nameAt(s, j, weekdays); ok {
		return e, true
	}
	var buf [32]byte
	if w, k, ok := wordAt(s, j, buf[:0]); ok && localWeekdays[string(w)] {
		return k, true
	}
	return 0, false
}

// idPrefixes are the prefixes of provider and tracing ids, with the
// separator that ends them.
var idPrefixes = map[string]bool{"req_": true, "req-": true, "request_": true, "request-": true,
	"msg_": true, "msg-": true, "chatcmpl-": true, "cmpl-": true, "resp_": true, "call_": true,
	"toolu_": true, "srvtoolu_": true, "run_": true, "sess_": true, "session_": true, "trace_": true,
	"span_": true, "evt_": true, "batch_": true, "file_": true, "thread_": true, "gen-": true,
	"conv_": true, "rs_": true, "fc_": true}

// prefixedIDAt matches a known id prefix followed by at least 8 id
// characters of which at least one is a digit.
func prefixedIDAt(s string, i int) (int, bool) {
	j := i
	for j < len(s) && j-i < 10 && s[j] >= 'a' && s[j] <= 'z' {
		j++
	}
	if j == i || j >= len(s) || (s[j] != '_' && s[j] != '-') || !idPrefixes[s[i:j+1]] {
		return 0, false
	}
	j++
	digits := 0
	k := j
	for k < len(s) && (isWordByte(s[k]) || s[k] == '-') {
		if IsDigit(s[k]) {
			digits++
		}
		k++
	}
	if k-j >= 8 && digits > 0 {
		return k, true
	}
	return 0, false
}

// idWords label the id that follows them ("request id: ...").
var idWords = map[string]bool{"request": true, "session": true, "trace": true, "conversation": true,
	"correlation": true, "message": true, "response": true, "run": true, "span": true, "thread": true}

// counterWords are words a changing count follows ("turn 7"). Words
// common in stable instructions ("step 1") are left out on purpose.
var counterWords = map[string]bool{"turn": true, "iteration": true, "attempt": true, "retry": true,
	"tick": true, "seq": true, "counter": true}

// counterSuffixes turn a word into a counter label when joined to it:
// "request_count", "turn-number", "message_index".
var counterSuffixes = map[string]bool{"count": true, "number": true, "num": true, "index": true,
	"seq": true, "counter": true}

// keywordAt matches a labelled id ("request id: X", "Request-Id: X",
// "session_id=X", "requestId": the value is the span) and a labelled count
// ("turn 7", "request_count=7", "Turn #7": the label and number are the
// span).
func keywordAt(s string, i int) (Volatile, bool) {
	k := i
	for k < len(s) && isAlpha(s[k]) && k-i <= 24 {
		k++
	}
	if k == i || (k < len(s) && isAlpha(s[k])) {
		return Volatile{}, false
	}
	var wb, sb [32]byte
	word := appendLower(wb[:0], s[i:k])
	label, end := "", k
	if len(word) > 2 && string(word[len(word)-2:]) == "id" && idWords[string(word[:len(word)-2])] {
		label = "id" // "requestId"
	} else if k+1 < len(s) && (s[k] == '_' || s[k] == '-' || s[k] == ' ') {
		m := k + 1
		for m < len(s) && isAlpha(s[m]) && m-k <= 12 {
			m++
		}
		suf := appendLower(sb[:0], s[k+1:m])
		switch {
		case string(suf) == "id" && idWords[string(word)]:
			label, end = "id", m
		case s[k] != ' ' && counterSuffixes[string(suf)]:
			label, end = "count", m
		}
	}
	if label == "" && counterWords[string(word)] {
		label = "count"
	}
	switch label {
	case "id":
		v := skipLabelSep(s, end)
		if v == end {
			return Volatile{}, false
		}
		e := v
		for e < len(s) && (isWordByte(s[e]) || s[e] == '-' || s[e] == '.') {
			e++
		}
		for e > v && (s[e-1] == '.' || s[e-1] == '-') {
			e--
		}
		if e-v >= 6 && hasDigit(s[v:e]) {
			return Volatile{Start: v, End: e, Kind: VolatileRequestID}, true
		}
	case "count":
		v := skipLabelSep(s, end)
		if v < len(s) && s[v] == '#' {
			v++
		}
		if v == end {
			return Volatile{}, false // "turn7" is a name, not a count
		}
		if _, e, ok := digitRun(s, v, 12); ok && endsWord(s, e) {
			return Volatile{Start: i, End: e, Kind: VolatileCounter}, true
		}
	}
	return Volatile{}, false
}

// appendLower appends the ASCII lower case of w to buf (no allocation for
// words that fit).
func appendLower(buf []byte, w string) []byte {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c |= 0x20
		}
		buf = append(buf, c)
	}
	return buf
}

// skipLabelSep skips the separator between a label and its value:
// spaces, ':', '=', '#', '"'.
func skipLabelSep(s string, j int) int {
	n := 0
	for j < len(s) && n < 4 && (s[j] == ' ' || s[j] == ':' || s[j] == '=' || s[j] == '"' || s[j] == '\'') {
		j++
		n++
	}
	return j
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if IsDigit(s[i]) {
			return true
		}
	}
	return false
}

// hexAt matches 16 or more hex digits mixing letters and digits (commit
// hashes, digests, opaque ids).
func hexAt(s string, i int) (int, bool) {
	j := i
	letters, digits := 0, 0
	for j < len(s) && isHex(s[j]) {
		if IsDigit(s[j]) {
			digits++
		} else {
			letters++
		}
		j++
	}
	if j-i < 16 || letters == 0 || digits == 0 || !endsWord(s, j) {
		return 0, false
	}
	return j, true
}
