package membound.benchmarks.placement;

import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.ExternalProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;

/**
 * Starts each JMH fork under {@code taskset -c CPUS}, the cpus its {@code -Dmembound.cpus} JVM argument names,
 * so the whole fork (team, JIT, garbage collector) runs on one placement's cpus.
 *
 * <p>Not a profiler in JMH's sense: it measures nothing. It is JMH's one hook for prefixing the fork's command
 * line ({@link #addJVMInvokeOptions}, the one {@code perf} and {@code numactl} wrappers use), so the
 * operating system's own tool does the placing and no wrapper script has to be found or generated. The
 * placement itself travels in the JVM arguments, which JMH records in every result.
 */
public final class CpuSetProfiler implements ExternalProfiler {

    @Override
    public Collection<String> addJVMInvokeOptions(BenchmarkParams params) {
        String cpus = CpuBinding.jvmArgument(params.getJvmArgs(), CpuBinding.CPUS_PROPERTY);
        String placement = CpuBinding.jvmArgument(params.getJvmArgs(), CpuBinding.PLACEMENT_PROPERTY);
        if (cpus == null || placement == null || placement.equals(Placement.ALL)) {
            return List.of();
        }
        return List.of("taskset", "-c", cpus);
    }

    @Override
    public Collection<String> addJVMOptions(BenchmarkParams params) {
        return List.of();
    }

    @Override
    public void beforeTrial(BenchmarkParams benchmarkParams) {
        // nothing to prepare: taskset places the fork as it starts
    }

    @Override
    public Collection<? extends Result> afterTrial(BenchmarkResult br, long pid, java.io.File stdOut,
            java.io.File stdErr) {
        return List.of();
    }

    @Override
    public boolean allowPrintOut() {
        return true;
    }

    @Override
    public boolean allowPrintErr() {
        return true;
    }

    @Override
    public String getDescription() {
        return "membound: runs each fork under taskset -c on its placement's cpus";
    }
}
