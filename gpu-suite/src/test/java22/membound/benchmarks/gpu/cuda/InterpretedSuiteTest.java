package membound.benchmarks.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import membound.benchmarks.gpu.GpuCopyResult;
import membound.benchmarks.gpu.GpuGemmPlan;
import membound.benchmarks.gpu.GpuPlan;
import membound.benchmarks.gpu.GpuRun;
import membound.benchmarks.gpu.GpuSharingResult;
import membound.benchmarks.gpu.GpuStreamResult;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;

/**
 * The whole GPU suite, {@link CudaGpuSuite#measure(GpuPlan, CudaCalls)}, on {@link InterpretedCuda}: its PTX run on
 * the host, on a discrete device (an H200's attributes, one multiprocessor) and on one that shares the host's memory
 * (GB10's: integrated, pageable memory through the host's page tables). Every pass is validated by the suite itself
 * as on a GPU, so this shows the suite's own logic end to end: the grid and working sets it derives from the
 * attributes, the poison, fill, launch and verify of every kernel on every type, the launch timings, the pinned
 * copies both ways, Triad on CPU-allocated memory and the sharing curve with the CPU threads streaming beside it,
 * and the run it returns. The times are the host's, not a GPU's: no figure here is one.
 */
class InterpretedSuiteTest {

    /** The smoke plan without GEMMs: cuBLASLt needs a GPU. */
    static final GpuPlan PLAN = GpuPlan.smokePlan().withGemm(GpuGemmPlan.none());
    /** The same on f64 alone: what runs on host memory and in the sharing curve is f64, and PLAN covers the rest. */
    static final GpuPlan SHARED_PLAN = new GpuPlan(PLAN.kernels(), List.of(ElementType.DOUBLE), false, true,
            PLAN.warmupPasses(), PLAN.passes(), PLAN.launches(), PLAN.copyBytes(), GpuGemmPlan.none());

    @Test
    void aDiscreteDeviceRunsEveryKernelAndSaysWhyNoSharingCurve() {
        try (InterpretedCuda cuda = new InterpretedCuda("Interpreted (H200 attributes)", attributes(9, 0, 2048,
                50 * 1024 * 1024, false), 256L * 1024 * 1024)) {
            GpuRun run = CudaGpuSuite.measure(PLAN, cuda);
            checkStream(run, PLAN, 8);
            assertEquals("9.0", run.device().computeCapability());
            assertTrue(run.sharing().isEmpty());
            assertTrue(run.notMeasured().stream().anyMatch(line -> line.startsWith("gpu sharing curve not measured: "
                    + "Interpreted (H200 attributes) does not share the host's memory")), run.notMeasured()::toString);
            assertEquals(256L * 1024 * 1024, cuda.gpu.free(), "every allocation is freed");
        }
    }

    @Test
    void aDeviceSharingTheHostsMemoryAlsoRunsOnCpuMemoryAndMeasuresTheSharingCurve() {
        try (InterpretedCuda cuda = new InterpretedCuda("Interpreted (GB10 attributes)", attributes(12, 1, 1536,
                24 * 1024 * 1024, true), 256L * 1024 * 1024)) {
            GpuRun run = CudaGpuSuite.measure(SHARED_PLAN, cuda);
            checkStream(run, SHARED_PLAN, 6);
            List<GpuStreamResult> host = run.stream().stream()
                    .filter(result -> result.workingSet().label().equals(CudaGpuSuite.HOST_PAGEABLE)).toList();
            assertEquals(1, host.size(), "Triad on CPU-allocated memory");
            assertEquals(StreamKernel.TRIAD, host.get(0).kernel());
            int cpus = Runtime.getRuntime().availableProcessors();
            Set<Integer> threads = new TreeSet<>(List.of(0, Math.max(1, cpus / 2), cpus));
            List<GpuSharingResult> gpu = run.sharing().stream().filter(r -> r.measured().equals("gpu")).toList();
            assertEquals(threads, gpu.stream().map(GpuSharingResult::cpuThreadsStreaming)
                    .collect(Collectors.toCollection(TreeSet::new)), "GPU Triad while 0, half and all CPU threads stream");
            List<GpuSharingResult> cpu = run.sharing().stream().filter(r -> r.measured().equals("cpu")).toList();
            assertEquals(1, cpu.size(), "CPU Triad while the GPU streams");
            assertTrue(cpu.get(0).gpuStreaming());
            for (GpuSharingResult result : run.sharing()) {
                assertEquals(SHARED_PLAN.passes(), result.passTimes().count(), result.toString());
            }
            assertEquals(256L * 1024 * 1024, cuda.gpu.free(), "every allocation is freed");
        }
    }

    /** Every kernel on every type once, each with the plan's passes, the grid the attributes give, and the copies. */
    private static void checkStream(GpuRun run, GpuPlan plan, int blocksPerMultiprocessor) {
        Map<ElementType, Set<StreamKernel>> seen = new HashMap<>();
        for (GpuStreamResult result : run.stream()) {
            if (result.workingSet().label().equals(CudaGpuSuite.HOST_PAGEABLE)) {
                continue;
            }
            assertEquals("smoke", result.workingSet().label());
            assertEquals(blocksPerMultiprocessor, result.grid(), "one multiprocessor's resident blocks");
            assertEquals(plan.passes(), result.passTimes().count(), result.toString());
            assertTrue(seen.computeIfAbsent(result.elementType(), t -> new TreeSet<>()).add(result.kernel()),
                    "once each: " + result);
        }
        for (ElementType type : plan.elementTypes()) {
            assertEquals(new TreeSet<>(plan.kernels()), seen.get(type), type.toString());
        }
        assertEquals(plan.launches(), run.launchSync().count());
        assertTrue(run.launchInterval().count() >= 1);
        assertEquals(Set.of("h2d", "d2h"), run.copies().stream().map(GpuCopyResult::direction)
                .collect(Collectors.toSet()));
        assertTrue(run.gemm().isEmpty());
    }

    /** What the suite asks of a device: compute capability, one multiprocessor, its L2 and how it reaches memory. */
    private static Map<Integer, Integer> attributes(int major, int minor, int threadsPerMultiprocessor, int l2Bytes,
                                                    boolean sharesHostMemory) {
        Map<Integer, Integer> attributes = new HashMap<>();
        attributes.put(CudaDriver.COMPUTE_CAPABILITY_MAJOR, major);
        attributes.put(CudaDriver.COMPUTE_CAPABILITY_MINOR, minor);
        attributes.put(CudaDriver.MULTIPROCESSOR_COUNT, 1);
        attributes.put(CudaDriver.MAX_THREADS_PER_MULTIPROCESSOR, threadsPerMultiprocessor);
        attributes.put(CudaDriver.MAX_THREADS_PER_BLOCK, 1024);
        attributes.put(CudaDriver.L2_CACHE_SIZE, l2Bytes);
        attributes.put(CudaDriver.GLOBAL_MEMORY_BUS_WIDTH, 5120);
        attributes.put(CudaDriver.MEMORY_CLOCK_RATE, 2_619_000);
        attributes.put(CudaDriver.CLOCK_RATE, 1_980_000);
        attributes.put(CudaDriver.INTEGRATED, sharesHostMemory ? 1 : 0);
        attributes.put(CudaDriver.UNIFIED_ADDRESSING, 1);
        attributes.put(CudaDriver.PAGEABLE_MEMORY_ACCESS, sharesHostMemory ? 1 : 0);
        attributes.put(CudaDriver.PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, sharesHostMemory ? 1 : 0);
        attributes.put(CudaDriver.CONCURRENT_MANAGED_ACCESS, sharesHostMemory ? 1 : 0);
        return attributes;
    }
}
