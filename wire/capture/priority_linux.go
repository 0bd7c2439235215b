package capture

import (
	"runtime"
	"syscall"
)

// recorderNice is the nice value of the recorder's thread.
const recorderNice = 10

// lowerPriority puts the calling goroutine, the recorder's writer, on a
// thread of its own at nice recorderNice (Linux sets nice per thread): when
// the cores are contested, the kernel runs the threads of the exchanges in
// flight first, and the record is written in their gaps. The thread ends
// with the goroutine. Where it cannot be lowered it stays as it was.
func lowerPriority() {
	runtime.LockOSThread()
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), recorderNice)
}
