package membound.benchmarks.suite;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark to run, the values of its parameters, and the cpus to run it on; a parameter not given takes
 * the benchmark's own {@code @Param} defaults. {@code threads} and {@code workingSet} may be symbolic
 * ({@code all}, {@code DRAM}, {@code L2}, {@code sweep}) and {@code placement} a name ({@code all},
 * {@code Cortex-X925}, {@code cluster1}): the plan resolves them on the host, {@code all} threads and cache
 * levels within the placement's cpus.
 */
public record SuiteRequest(SuiteBenchmark benchmark, Map<String, List<String>> parameters, String placement) {

    public SuiteRequest {
        parameters = Map.copyOf(new LinkedHashMap<>(parameters));
        if (placement == null || placement.isBlank()) {
            throw new IllegalArgumentException("placement must be a name such as all or Cortex-X925: placement="
                    + placement);
        }
    }

    /** On every cpu ({@code all}). */
    public SuiteRequest(SuiteBenchmark benchmark, Map<String, List<String>> parameters) {
        this(benchmark, parameters, "all");
    }

    public static SuiteRequest of(SuiteBenchmark benchmark) {
        return new SuiteRequest(benchmark, Map.of());
    }

    /** This request with {@code name} set to {@code values}. */
    public SuiteRequest with(String name, String... values) {
        Map<String, List<String>> more = new LinkedHashMap<>(parameters);
        more.put(name, List.of(values));
        return new SuiteRequest(benchmark, more, placement);
    }

    /** This request on the cpus {@code placementName} names. */
    public SuiteRequest on(String placementName) {
        return new SuiteRequest(benchmark, parameters, placementName);
    }

    /** The values of {@code name}: as given, else the benchmark's defaults. */
    public List<String> values(String name) {
        List<String> given = parameters.get(name);
        return given != null && !given.isEmpty() ? given : List.of(benchmark.defaults(name));
    }

    /** True if the request sets {@code name} itself. */
    public boolean sets(String name) {
        return parameters.containsKey(name) && !parameters.get(name).isEmpty();
    }
}
