// Package scan finds what is dangerous or changing in hostile text: hazard
// code points and escape sequences (Hazards), reserved and look-alike tags
// (FindReservedTags), values that change from request to request
// (FindVolatile), and renders any text visibly for a terminal (Visible,
// SafeJSON). The escaper, the audit, the cache analysis and the viewer all
// use this one scanner.
package scan
