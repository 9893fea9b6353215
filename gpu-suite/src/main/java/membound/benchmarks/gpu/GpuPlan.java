package membound.benchmarks.gpu;

import java.util.ArrayList;
import java.util.List;

import membound.benchmarks.sizing.WorkingSet;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.vocabulary.BadInputException;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.units.Units;

/**
 * What the GPU suite runs: which STREAM kernels on which element types, how many passes of each, at which working
 * sets (derived from the device's L2 size, read from its attributes when the suite starts), how many launches for
 * the launch latency and how many bytes per pinned copy.
 *
 * @param kernels       the STREAM kernels the device runs (copy, scale, add, triad, dot, fill)
 * @param elementTypes  fp64, fp32 and bf16
 * @param sweep         working sets from inside the L2 to DRAM by doubling, not only those two
 * @param smoke         tiny arrays that check the machinery, not the device
 * @param warmupPasses  passes run before the measured ones, not kept
 * @param passes        measured passes per kernel, type and working set, each timed with CUDA events and validated
 * @param launches      empty-kernel launches timed for the launch + synchronise latency
 * @param copyBytes     bytes of one pinned host-to-device or device-to-host copy
 * @param gemm          the cuBLASLt GEMMs
 */
public record GpuPlan(List<StreamKernel> kernels, List<ElementType> elementTypes, boolean sweep, boolean smoke,
                      int warmupPasses, int passes, int launches, long copyBytes, GpuGemmPlan gemm) {

    /** The kernels a device runs: STREAM's four, BabelStream's Dot (the read kernel) and a write-only Fill. */
    public static final List<StreamKernel> DEVICE_KERNELS = List.of(StreamKernel.COPY, StreamKernel.SCALE,
            StreamKernel.ADD, StreamKernel.TRIAD, StreamKernel.DOT, StreamKernel.FILL);

    /** The element types the device's STREAM kernels run on: fp64, fp32 and bf16 (sm_80 and newer). */
    public static final List<ElementType> DEVICE_TYPES = List.of(ElementType.DOUBLE, ElementType.FLOAT,
            ElementType.BF16);

    /** A DRAM array is at least this large, beside STREAM's 4x the L2 (HBM parts have L2s of 50 MB and more). */
    public static final long DRAM_MINIMUM_ARRAY_BYTES = Units.GIB;

    /**
     * Threads per block of every STREAM kernel: a power of two (the Dot tree needs one), at most the kernels'
     * 1024-slot shared array. The suite launches {@link #residentBlocks} blocks, the grid a device holds at once.
     */
    public static final int THREADS_PER_BLOCK = 256;

    /** Elements move as 16-byte vectors: arrays hold a multiple of 16 bytes. */
    public static final int VECTOR_BYTES = 16;

    /** A smoke run's array: small enough for any device, large enough that every block has work. */
    static final long SMOKE_ARRAY_BYTES = 4 * Units.MIB;

    public GpuPlan {
        kernels = List.copyOf(kernels);
        elementTypes = List.copyOf(elementTypes);
        for (StreamKernel kernel : kernels) {
            if (!DEVICE_KERNELS.contains(kernel)) {
                throw new BadInputException("GPU kernels must be among " + DEVICE_KERNELS + ": kernel=" + kernel);
            }
        }
        positive("warmupPasses", warmupPasses, 0);
        positive("passes", passes, 1);
        positive("launches", launches, 1);
        if (gemm == null) {
            throw new BadInputException("a GPU plan needs a GEMM plan (GpuGemmPlan.none() for none): gemm=null");
        }
        if (copyBytes < VECTOR_BYTES || copyBytes % VECTOR_BYTES != 0) {
            throw new BadInputException("copyBytes must be a positive multiple of " + VECTOR_BYTES + ": copyBytes="
                    + copyBytes);
        }
    }

    private static void positive(String name, int value, int least) {
        if (value < least) {
            throw new BadInputException(name + " must be at least " + least + ": " + name + "=" + value);
        }
    }

    /**
     * The grid that fills a device: {@value #THREADS_PER_BLOCK}-thread blocks, as many per multiprocessor as its
     * resident threads allow. Every block is resident at once only if no kernel is held back by its registers or
     * shared memory: PtxAssemblyTest checks that from ptxas's resource report for every kernel and architecture.
     */
    public static int residentBlocks(int multiprocessors, int maxThreadsPerMultiprocessor) {
        return multiprocessors * Math.max(1, maxThreadsPerMultiprocessor / THREADS_PER_BLOCK);
    }

    /** Every kernel on both types at the L2 and DRAM working sets (a sweep between them where asked), no GEMM. */
    public static GpuPlan of(boolean sweep, int passes) {
        return new GpuPlan(DEVICE_KERNELS, DEVICE_TYPES, sweep, false, 3, passes,
                1000, 256 * Units.MIB, GpuGemmPlan.none());
    }

    /** This plan with {@code gemm} as its GEMMs. */
    public GpuPlan withGemm(GpuGemmPlan gemm) {
        return new GpuPlan(kernels, elementTypes, sweep, smoke, warmupPasses, passes, launches, copyBytes, gemm);
    }

    /** Every kernel on both types at tiny sizes, two passes each: checks the machinery in seconds. */
    public static GpuPlan smokePlan() {
        return new GpuPlan(DEVICE_KERNELS, DEVICE_TYPES, false, true, 1, 2, 20,
                Units.MIB, GpuGemmPlan.smoke());
    }

    /**
     * A working set: each of a kernel's arrays holds {@code arrayBytes}.
     *
     * @param label "L2", "DRAM", "smoke" or the array size for a sweep point
     */
    public record WorkingSetSize(String label, long arrayBytes, MemoryLevel level) {
    }

    /**
     * The working sets on a device with an L2 of {@code l2Bytes}: "L2" has each array a sixth of the L2 (three
     * arrays fill half of it), "DRAM" each array {@link WorkingSet#DRAM_MULTIPLE} times the L2 and at least
     * {@link #DRAM_MINIMUM_ARRAY_BYTES}; a sweep doubles from the first to the second.
     */
    public List<WorkingSetSize> workingSets(long l2Bytes) {
        if (l2Bytes <= 0) {
            throw new GpuUnavailableException("the device reports no L2 cache size (attribute "
                    + "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = " + l2Bytes + "): the working sets cannot be sized", null);
        }
        if (smoke) {
            long bytes = roundToVector(SMOKE_ARRAY_BYTES);
            return List.of(new WorkingSetSize("smoke", bytes, 3 * bytes <= l2Bytes ? MemoryLevel.L2 : MemoryLevel.DRAM));
        }
        long inL2 = roundToVector(l2Bytes / 6);
        long dram = roundToVector(Math.max(WorkingSet.DRAM_MULTIPLE * l2Bytes, DRAM_MINIMUM_ARRAY_BYTES));
        List<WorkingSetSize> sizes = new ArrayList<>();
        sizes.add(new WorkingSetSize("L2", inL2, MemoryLevel.L2));
        if (sweep) {
            for (long bytes = 2 * inL2; bytes < dram; bytes *= 2) {
                sizes.add(new WorkingSetSize(Units.formatBytes(bytes), bytes,
                        3 * bytes <= l2Bytes ? MemoryLevel.L2 : MemoryLevel.DRAM));
            }
        }
        sizes.add(new WorkingSetSize("DRAM", dram, MemoryLevel.DRAM));
        return sizes;
    }

    private static long roundToVector(long bytes) {
        return Math.max(VECTOR_BYTES, bytes / VECTOR_BYTES * VECTOR_BYTES);
    }
}
