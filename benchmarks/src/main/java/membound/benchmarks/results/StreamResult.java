package membound.benchmarks.results;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.placement.Placement;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.sizing.WorkingSet;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.Implementation;
import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamWorkload;

/**
 * One {@link StreamBenchmark} result turned into bandwidth: the workload its parameters name, and the
 * bytes per second under both conventions over the distribution of pass times.
 */
public record StreamResult(StreamWorkload workload, String workingSetLabel, Implementation implementation,
        PassTimes passTimes, String placement) {

    /** True if {@code result} came from {@link StreamBenchmark}. */
    public static boolean isStream(RunResult result) {
        return result.getParams().getBenchmark().startsWith(StreamBenchmark.class.getName() + ".");
    }

    /** Reads the workload back from the result's parameters; a level label is resolved on this host. */
    public static StreamResult of(RunResult result) {
        BenchmarkParams params = result.getParams();
        int threads = Threads.resolve(params.getParam("threads"));
        WorkingSet workingSet = WorkingSet.resolve(params.getParam("workingSet"), threads, CacheSizes::detect);
        StreamWorkload workload = StreamWorkload.of(StreamKernel.of(params.getParam("kernel")),
                ElementType.of(params.getParam("elementType")), workingSet.arrayBytes(), threads);
        return new StreamResult(workload, workingSet.label(), Implementation.of(params.getParam("implementation")),
                PassTimes.of(result.getPrimaryResult()), placementOf(params));
    }

    /** Where a result ran, from the fork's {@code -Dmembound.placement}: {@code all} for results made without one. */
    public static String placementOf(BenchmarkParams params) {
        String placement = CpuBinding.jvmArgument(params.getJvmArgs(), CpuBinding.PLACEMENT_PROPERTY);
        return placement == null ? Placement.ALL : placement;
    }

    /** True if the fork's team threads were each bound to one cpu. */
    public static boolean pinned(BenchmarkParams params) {
        return Boolean.parseBoolean(CpuBinding.jvmArgument(params.getJvmArgs(), CpuBinding.PIN_PROPERTY));
    }

    /** Bytes per second counting only what the code reads and writes (STREAM's convention). */
    public Rate streamBytesPerSecond() {
        return Rate.of(workload.streamBytesPerPass(), passTimes);
    }

    /** Bytes per second the memory system moves: written-only lines are also read (write-allocate). */
    public Rate hardwareBytesPerSecond() {
        return Rate.of(workload.hardwareBytesPerPass(), passTimes);
    }
}
