package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// faults: the regression drill's injected work (docs/ARCHITECTURE.md, FAULT_*), as bench-support's FaultInjection
// does it for the JVM variants. Extra CPU (FAULT_CPU_PERCENT) or allocation (FAULT_ALLOC_PERCENT) per request as a
// percentage of what the whole process spent per request over the last second (its CPU time from getrusage, its
// allocated bytes from runtime/metrics), the faults' own work taken out so that the estimate does not feed on
// itself. Until the first second's estimate exists a request gets no fault. FAULT_START_FAIL_PERCENT: the share of
// starts that fail on purpose, drawn once at start. Off by default; nil when off, and then no request pays for it.
type faults struct {
	cpuPercent, allocPercent float64

	requests, addedCPU, addedBytes atomic.Int64
	nextUpdate                     atomic.Int64
	mu                             sync.Mutex
	last                           struct{ requests, cpu, addedCPU, bytes, addedBytes int64 }
	cpuPerRequest, bytesPerRequest atomic.Int64 // -1 until known
}

const faultMinRequests = 20 // fewer in an interval leave the estimate as it was

func percentEnv(name string) (float64, error) {
	text := os.Getenv(name)
	if text == "" {
		return 0, nil
	}
	value, err := strconv.ParseFloat(text, 64)
	if err != nil || value < 0 {
		return 0, fmt.Errorf("%s must be a number >= 0, got %q", name, text)
	}
	return value, nil
}

// faultsFromEnv: nil when no fault is asked for; an error for a bad value or a start drawn to fail.
func faultsFromEnv(draw float64) (*faults, error) {
	startFail, err := percentEnv("FAULT_START_FAIL_PERCENT")
	if err != nil || startFail >= 100 {
		return nil, fmt.Errorf("FAULT_START_FAIL_PERCENT must be at least 0 and below 100, got %q", os.Getenv("FAULT_START_FAIL_PERCENT"))
	}
	cpu, err := percentEnv("FAULT_CPU_PERCENT")
	if err != nil {
		return nil, err
	}
	alloc, err := percentEnv("FAULT_ALLOC_PERCENT")
	if err != nil {
		return nil, err
	}
	if draw < startFail {
		return nil, fmt.Errorf("FAULT_START_FAIL_PERCENT=%v: this start fails on purpose (the regression drill)", startFail)
	}
	if cpu == 0 && alloc == 0 {
		return nil, nil
	}
	f := &faults{cpuPercent: cpu, allocPercent: alloc}
	f.cpuPerRequest.Store(-1)
	f.bytesPerRequest.Store(-1)
	f.last.cpu, f.last.bytes = processCPUNanos(), processAllocatedBytes()
	f.nextUpdate.Store(time.Now().UnixNano() + int64(time.Second))
	return f, nil
}

func drawPercent() float64 { return rand.Float64() * 100 }

func processCPUNanos() int64 {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return -1
	}
	return usage.Utime.Nano() + usage.Stime.Nano()
}

// threadCPUNanos: this OS thread's CPU time (Linux RUSAGE_THREAD), for a goroutine locked to its thread.
func threadCPUNanos() int64 {
	var usage syscall.Rusage
	if syscall.Getrusage(1 /* RUSAGE_THREAD */, &usage) != nil {
		return -1
	}
	return usage.Utime.Nano() + usage.Stime.Nano()
}

var allocSample = []rtmetrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
var allocMu sync.Mutex

func processAllocatedBytes() int64 {
	allocMu.Lock()
	defer allocMu.Unlock()
	rtmetrics.Read(allocSample)
	if allocSample[0].Value.Kind() != rtmetrics.KindUint64 {
		return -1
	}
	return int64(allocSample[0].Value.Uint64())
}

var faultSink atomic.Pointer[[]byte]

// afterRequest: the request's fault (sized on the current estimate), then its count toward the next estimate.
func (f *faults) afterRequest() {
	var cpuAdded, bytesAdded int64
	if per := f.cpuPerRequest.Load(); per > 0 && f.cpuPercent > 0 {
		cpuAdded = burn(int64(float64(per) * f.cpuPercent / 100))
	}
	if per := f.bytesPerRequest.Load(); per > 0 && f.allocPercent > 0 {
		bytesAdded = int64(float64(per) * f.allocPercent / 100)
		for left := bytesAdded; left > 0; left -= 4096 {
			chunk := make([]byte, min(left, 4096))
			faultSink.Store(&chunk)
		}
	}
	f.requests.Add(1)
	f.addedCPU.Add(cpuAdded)
	f.addedBytes.Add(bytesAdded)
	now := time.Now().UnixNano()
	if due := f.nextUpdate.Load(); now >= due && f.nextUpdate.CompareAndSwap(due, now+int64(time.Second)) {
		f.renew()
	}
}

// burn spends nanos of this thread's CPU time; what it spent.
func burn(nanos int64) int64 {
	if nanos <= 0 {
		return 0
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPUNanos()
	if start < 0 {
		return 0
	}
	x := uint64(1)
	for {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if spent := threadCPUNanos() - start; spent >= nanos {
			if x == 42 {
				runtime.Gosched() // keeps x alive
			}
			return spent
		}
	}
}

func (f *faults) renew() {
	f.mu.Lock()
	defer f.mu.Unlock()
	requests, cpu, addedCPU := f.requests.Load(), processCPUNanos(), f.addedCPU.Load()
	bytes, addedBytes := processAllocatedBytes(), f.addedBytes.Load()
	if handled := requests - f.last.requests; handled >= faultMinRequests {
		if cpu >= 0 && f.last.cpu >= 0 {
			f.cpuPerRequest.Store(max(0, (cpu-f.last.cpu)-(addedCPU-f.last.addedCPU)) / handled)
		}
		if bytes >= 0 && f.last.bytes >= 0 {
			f.bytesPerRequest.Store(max(0, (bytes-f.last.bytes)-(addedBytes-f.last.addedBytes)) / handled)
		}
	}
	f.last.requests, f.last.cpu, f.last.addedCPU, f.last.bytes, f.last.addedBytes = requests, cpu, addedCPU, bytes, addedBytes
}
