package membound.benchmarks.results;

import java.util.function.Function;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.placement.Placement;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.sizing.Threads;
import membound.benchmarks.sizing.WorkingSet;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamWorkload;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Implementation;
import membound.vocabulary.units.RateStatistics;

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
        return of(params::getParam, PassTimes.of(result.getPrimaryResult()), placementOf(params));
    }

    /**
     * The one reading of a STREAM result's parameters, for a result in memory and one read back from JMH's JSON
     * alike: {@code kernel}, {@code elementType}, {@code threads}, {@code workingSet} (the suite writes it resolved,
     * {@code LABEL:BYTES}; a bare level is resolved on this host) and {@code implementation} (vector where absent).
     *
     * @throws BadInputException for a parameter the suite would not have written
     */
    public static StreamResult of(Function<String, String> param, PassTimes passTimes, String placement) {
        int threads = Threads.resolve(required(param, "threads"));
        WorkingSet workingSet = WorkingSet.resolve(required(param, "workingSet"), threads, CacheSizes::detect);
        StreamWorkload workload = StreamWorkload.of(StreamKernel.of(required(param, "kernel")),
                ElementType.of(required(param, "elementType")), workingSet.arrayBytes(), threads);
        String implementation = param.apply("implementation");
        return new StreamResult(workload, workingSet.label(),
                implementation == null ? Implementation.VECTOR : Implementation.kernelTwin(implementation), passTimes, placement);
    }

    private static String required(Function<String, String> param, String name) {
        String value = param.apply(name);
        if (value == null) {
            throw new BadInputException("a StreamBenchmark result must have the parameter " + name + ": " + name
                    + "=<missing>");
        }
        return value;
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
    public RateStatistics streamBytesPerSecond() {
        return passTimes.rates(workload.streamBytesPerPass());
    }

    /**
     * Bytes per second the memory system moves: with {@code storesAllocate} written-only lines are also read
     * (write-allocate); without, the STREAM figure.
     */
    public RateStatistics hardwareBytesPerSecond(boolean storesAllocate) {
        return passTimes.rates(workload.hardwareBytesPerPass(storesAllocate));
    }
}
