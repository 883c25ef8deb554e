import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the cost of some work grows with its size, measured in CPU time rather than on a wall
/// clock: a loaded machine makes a test wait for a core (and a wall clock counts that wait), but
/// the CPU time the work itself takes hardly changes. Linear work done at n and at 4n costs
/// about 4 times as much; quadratic work about 16 times.
public enum Growth {
    /// CPU time the calling thread has used, in seconds (`CLOCK_THREAD_CPUTIME_ID`): time spent
    /// waiting for a core does not count.
    public static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The CPU time `body` takes on this thread (synchronous work stays on the thread it started on).
    public static func cpuSeconds(_ body: () throws -> Void) rethrows -> Double {
        let start = threadCPUSeconds()
        try body()
        return threadCPUSeconds() - start
    }

    /// `cost(size)` at `size` and at `factor × size`, the cheapest of `rounds` tries at each
    /// (a try that lost its cache or shared a core to a hog only ever costs more); returns the
    /// ratio large / small, with both costs for a failure message. `cost` returns seconds of CPU
    /// time (or any other measure of work, such as a count of operations).
    public static func ratio(
        size: Int, factor: Int = 4, rounds: Int = 3, _ cost: (Int) throws -> Double
    ) rethrows -> (ratio: Double, small: Double, large: Double) {
        var small = Double.infinity
        var large = Double.infinity
        for _ in 0..<rounds {
            small = min(small, try cost(size))
            large = min(large, try cost(size * factor))
        }
        return (large / max(small, 1e-9), small, large)
    }

    /// The ratio for work done on this thread: `work(size)` timed in this thread's CPU time.
    public static func cpuRatio(
        size: Int, factor: Int = 4, rounds: Int = 3, _ work: (Int) throws -> Void
    ) rethrows -> (ratio: Double, small: Double, large: Double) {
        try ratio(size: size, factor: factor, rounds: rounds) { size in try cpuSeconds { try work(size) } }
    }

    /// Below this ratio, work done at n and at `factor` × n grew linearly: twice `factor`, room for
    /// a cache that the larger input outgrows and for noise. Quadratic work gives `factor`², 16
    /// for 4 (twice the bound) and 64 for 8 (four times).
    public static func linearBound(factor: Int) -> Double {
        2 * Double(factor)
    }
}
