package cells

import (
	"sort"
	"unicode/utf8"
)

// Ranges is one layer of marks over a text: byte ranges in order that do
// not overlap (search matches, hazards, applied escapes).
type Ranges interface {
	Len() int
	Range(i int) (start, end int)
}

// Layers is how a renderer splits a row of text into pieces, one source for
// drawing it and for wrapping it (Wrap), so a row never holds more than it
// was wrapped for. A piece is marked by the first layer with a range over
// its start and ends where that range does or where a range of a layer
// before it starts; an unmarked piece ends where any range starts. Every
// piece ends at Cut too. A marked piece is drawn with Bracket cells around
// it, and the piece starting at Cut after a marker of CutCells cells.
type Layers struct {
	Text     string
	Layers   []Ranges
	Bracket  int
	Cut      int // -1: none
	CutCells int
	// Inserts are markers drawn before the character at their offset (what
	// an escape removed), in order of offset, one per offset; a piece ends
	// at each and the one starting there has its cells.
	Inserts []Insert
}

// Insert is a marker of Cells cells drawn before the character at Offset.
type Insert struct{ Offset, Cells int }

// Cursor walks the ranges of Layers forward: in each layer, the first
// range that ends after the position last asked for.
type Cursor []int

// Cursor is a cursor at byte offset start.
func (l *Layers) Cursor(start int) Cursor {
	c := make(Cursor, len(l.Layers)+1)
	for k, r := range l.Layers {
		c[k] = sort.Search(r.Len(), func(i int) bool { _, end := r.Range(i); return end > start })
	}
	c[len(l.Layers)] = sort.Search(len(l.Inserts), func(i int) bool { return l.Inserts[i].Offset >= start })
	return c
}

// Piece is the piece drawn from pos in a row ending at end: where it ends
// (on a code point's boundary), the layer that marks it and which of its
// ranges (-1 and -1 when unmarked), and the cells drawn besides its text.
// pos only grows from one call to the next on a cursor.
func (l *Layers) Piece(c Cursor, pos, end int) (next, layer, index, extra int) {
	next, layer, index = end, -1, -1
	for k, r := range l.Layers {
		for c[k] < r.Len() {
			if _, e := r.Range(c[k]); e > pos {
				break
			}
			c[k]++
		}
		if c[k] >= r.Len() {
			continue
		}
		switch start, e := r.Range(c[k]); {
		case layer >= 0:
			// A layer before this one marks the piece: this one does not
			// split it.
		case start <= pos:
			layer, index, next = k, c[k], min(next, e)
		default:
			next = min(next, start)
		}
	}
	if l.Cut > pos {
		next = min(next, l.Cut)
	}
	ins := &c[len(l.Layers)]
	for *ins < len(l.Inserts) && l.Inserts[*ins].Offset < pos {
		*ins++
	}
	if *ins < len(l.Inserts) {
		if o := l.Inserts[*ins]; o.Offset == pos {
			extra += o.Cells
			if *ins+1 < len(l.Inserts) {
				next = min(next, l.Inserts[*ins+1].Offset)
			}
		} else {
			next = min(next, o.Offset)
		}
	}
	next = max(next, pos+1)
	for next < len(l.Text) && !utf8.RuneStart(l.Text[next]) {
		next++
	}
	next = min(next, len(l.Text))
	if layer >= 0 {
		extra += l.Bracket
	}
	if pos == l.Cut {
		extra += l.CutCells
	}
	return next, layer, index, extra
}

// Pieces is Piece as Wrap asks for it, from byte offset from (going back
// to a word boundary now and then); nil when no piece has cells of its own.
func (l *Layers) Pieces(from int) Pieces {
	if l.Bracket == 0 && (l.Cut < 0 || l.Cut >= len(l.Text) || l.CutCells == 0) && len(l.Inserts) == 0 {
		return nil
	}
	c, last := l.Cursor(from), from
	return func(i int) (int, int) {
		if i < last {
			// Wrap went back to a word boundary.
			c = l.Cursor(i)
		}
		last = i
		next, _, _, extra := l.Piece(c, i, len(l.Text))
		return next, extra
	}
}
