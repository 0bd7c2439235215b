//go:build !linux

package capture

// lowerPriority does nothing where a thread's priority is not its own.
func lowerPriority() {}
