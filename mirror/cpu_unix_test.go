//go:build unix

package mirror_test

import (
	"syscall"
	"time"
)

// cpuMeasured says that processCPU reads the process's CPU time here.
const cpuMeasured = true

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
