// Package render draws hostile text for the viewer's panes as rows of a
// given width: a text wrapped as it is drawn (marks, escape notes and the
// cache cut counted), highlighted by chroma in windows around the view, the
// side-by-side diff of two requests, and a request's body for the Raw view.
// It holds no Bubble Tea state: its heavy work comes back as closures the
// viewer runs in commands, and every piece of text it draws passes through
// scan.VisibleLine first.
package render
