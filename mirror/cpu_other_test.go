//go:build !unix

package mirror_test

import "time"

// cpuMeasured says that processCPU does not read the process's CPU time
// here: the benchmarks then report none.
const cpuMeasured = false

// processCPU is 0 where the process's CPU time is not read.
func processCPU() time.Duration { return 0 }
