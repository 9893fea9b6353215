package membound.benchmarks.stream;

import membound.vocabulary.BadInputException;

/**
 * One STREAM measurement, fully resolved: the kernel, the element type, the team and how much each
 * thread streams. Everything that turns a time per pass into bytes per second is derived here, once,
 * for the benchmarks and for whoever reads their results.
 *
 * @param elementsPerThread length of each thread's slice of every array
 * @param repsPerPass kernel applications per thread in one pass; above 1 only for cache-sized arrays,
 *        so a pass lasts long enough that starting and stopping the team costs under ~1%
 */
public record StreamWorkload(StreamKernel kernel, ElementType elementType, int threads, int elementsPerThread,
        int repsPerPass) {

    /** A pass moves at least this much (STREAM convention) before it ends. */
    public static final long MIN_BYTES_PER_PASS = 64L << 20;

    public StreamWorkload {
        if (threads < 1) {
            throw new BadInputException("threads must be at least 1: threads=" + threads);
        }
        if (elementsPerThread < 1) {
            throw new BadInputException("elementsPerThread must be at least 1: elementsPerThread="
                    + elementsPerThread);
        }
        if (repsPerPass < 1) {
            throw new BadInputException("repsPerPass must be at least 1: repsPerPass=" + repsPerPass);
        }
    }

    /**
     * The workload whose arrays each hold {@code arrayBytes} in total, split evenly over {@code threads}.
     *
     * @throws IllegalArgumentException when a slice would be empty or exceed a Java array's length
     */
    public static StreamWorkload of(StreamKernel kernel, ElementType elementType, long arrayBytes, int threads) {
        long perThread = arrayBytes / elementType.bytes() / threads;
        if (perThread < 1) {
            throw new BadInputException("arrayBytes must give every thread at least one element: arrayBytes="
                    + arrayBytes + ", threads=" + threads);
        }
        if (perThread > Integer.MAX_VALUE - 16) {
            throw new BadInputException("arrayBytes per thread must fit one Java array: arrayBytes="
                    + arrayBytes + ", threads=" + threads);
        }
        long bytesPerRep = perThread * threads * kernel.streamArraysMoved() * (long) elementType.bytes();
        long reps = Math.max(1, (MIN_BYTES_PER_PASS + bytesPerRep - 1) / bytesPerRep);
        return new StreamWorkload(kernel, elementType, threads, (int) perThread, (int) Math.min(reps, 1 << 20));
    }

    /** Elements per array over all threads. */
    public long elements() {
        return (long) elementsPerThread * threads;
    }

    /** Bytes of one array over all threads. */
    public long arrayBytes() {
        return elements() * elementType.bytes();
    }

    /** Bytes of every array the kernel touches, over all threads. */
    public long footprintBytes() {
        return arrayBytes() * kernel.arrays();
    }

    /** STREAM-convention bytes one pass moves: only what the code reads and writes. */
    public long streamBytesPerPass() {
        return arrayBytes() * kernel.streamArraysMoved() * repsPerPass;
    }

    /**
     * Hardware-convention bytes one pass moves: with {@code storesAllocate} each written-only line is also read
     * (write-allocate); without, as many as STREAM's ({@link StreamKernel#hardwareArraysMoved(boolean)}).
     */
    public long hardwareBytesPerPass(boolean storesAllocate) {
        return arrayBytes() * kernel.hardwareArraysMoved(storesAllocate) * repsPerPass;
    }

    /** Floating-point operations in one pass. */
    public long flopsPerPass() {
        return elements() * kernel.flopsPerElement() * repsPerPass;
    }
}
