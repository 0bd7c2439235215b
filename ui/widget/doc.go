// Package widget draws the viewer's frames, bars and tables, knowing nothing
// of its model: boxes with a title, a scroll bar and the position in their
// bottom edge; blocks joined side by side; the header line with the view
// tabs; the request list; the status line and its prompt; the tables of the Escapes, Findings and Cache views (cursor, visible
// rows, the selected row's details); and the Cache view's bars (the prompt
// cache's reuse and the stacked context bar of a request's categories). It
// takes the lines it frames already sanitised and styled, and sanitises the
// hostile text it is given itself (the header's title and layout).
package widget
