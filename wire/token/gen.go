//go:build ignore

// gen writes o200k_base.bin, the o200k_base vocabulary in rank order, from
// tiktoken-go (the oracle the tests compare against). Run it with
// `go generate` in this directory. The format is described in vocab.go.
package main

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/tiktoken-go/tokenizer"
)

func main() {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		fail(err)
	}
	c.SetErrorMode(tokenizer.ErrorModeNone) // the raw bytes of each token
	var lens, data []byte
	n := 0
	for id := uint(0); ; id++ {
		s, err := c.Decode([]uint{id})
		if err != nil {
			break // the first id without a token ends the ordinary vocabulary
		}
		if len(s) == 0 || len(s) > 255 {
			fail(fmt.Errorf("token %d is %d bytes", id, len(s)))
		}
		lens = append(lens, byte(len(s)))
		data = append(data, s...)
		n++
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(n))
	out = append(out, lens...)
	out = append(out, data...)
	if err := os.WriteFile("o200k_base.bin", out, 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("o200k_base.bin: %d tokens, %d bytes\n", n, len(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
