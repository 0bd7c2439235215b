//go:build !unix

package main

import "os"

// Where there are no sessions or signals to ignore, the sleepers of the
// process-tree tests (which run on Linux only) are not needed.

func testSleeper() { os.Exit(0) }

func testParentOfSleepers() int { return 0 }
