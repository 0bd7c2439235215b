// Package redact masks credentials in what wirelens shows of a recording:
// the values of headers, cookies and query or form parameters whose names say
// they are secret, the user:pass@ of URLs, and values shaped like API keys
// and tokens wherever they stand. It works on decoded values, not on their
// spelling: a header name written \u0061uthorization in the JSON is still
// Authorization, and the members of a {"name": N, "value": V} pair may come
// in any order with others between them.
//
// The masking is done in one place, where recorded data leaves wire/decode,
// the one way in: Decode masks each request's Endpoint and notes and every
// error message as it hands them out, and ReadBody, the one way back to the
// recorded bytes (the viewer's Raw view), passes them through Body. The
// reports, their JSON and SARIF, and the viewer all read what decode hands
// out, so none of them masks on its own and a new output is covered from
// the start. Segment text is left as recorded: it is what the model was told,
// and wirelens counts, caches and audits it byte for byte.
package redact
