package membound.benchmarks.suite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.openjdk.jmh.runner.options.CommandLineOptions;

import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.stream.StreamKernel;
import membound.vocabulary.BadInputException;

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
            throw new BadInputException("placement must be a name such as all or Cortex-X925: placement="
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

    /**
     * The benchmarks a command line selects, by include pattern or kernel name ({@code Triad} is
     * {@link StreamBenchmark} with {@code kernel=TRIAD}), each with the command line's {@code -p} values of its
     * parameters; {@link StreamBenchmark} when it selects none.
     *
     * @throws BadInputException for an include that names neither a benchmark nor a kernel
     */
    public static List<SuiteRequest> selectedBy(CommandLineOptions command) {
        List<SuiteBenchmark> selected = new ArrayList<>();
        List<String> kernels = new ArrayList<>(parameter(command, "kernel").stream()
                .map(v -> v.trim().toUpperCase(Locale.ROOT)).toList());
        for (String include : command.getIncludes()) {
            Optional<StreamKernel> kernel = Arrays.stream(StreamKernel.values())
                    .filter(k -> k.name().equalsIgnoreCase(include.trim())).findFirst();
            if (kernel.isPresent()) {
                kernels.add(kernel.get().name());
                addOnce(selected, SuiteBenchmark.STREAM);
                continue;
            }
            List<SuiteBenchmark> matching = SuiteBenchmark.all().stream().filter(b -> b.matches(include)).toList();
            if (matching.isEmpty()) {
                throw new BadInputException("include must name a benchmark (" + SuiteBenchmark.names()
                        + ") or a kernel (" + StreamBenchmark.kernelLabels() + "): include=" + include);
            }
            matching.forEach(benchmark -> addOnce(selected, benchmark));
        }
        if (selected.isEmpty()) {
            selected.add(SuiteBenchmark.STREAM);
        }
        List<SuiteRequest> requests = new ArrayList<>();
        for (SuiteBenchmark benchmark : selected) {
            SuiteRequest request = of(benchmark);
            for (String name : SuiteBenchmark.allParameterNames()) {
                List<String> values = name.equals("kernel") ? kernels : parameter(command, name);
                if (!values.isEmpty() && benchmark.defaults(name).length > 0) {
                    request = request.with(name, values.toArray(String[]::new));
                }
            }
            requests.add(request);
        }
        return requests;
    }

    private static List<String> parameter(CommandLineOptions command, String name) {
        return command.getParameter(name).hasValue() ? List.copyOf(command.getParameter(name).get()) : List.of();
    }

    private static <T> void addOnce(List<T> list, T value) {
        if (!list.contains(value)) {
            list.add(value);
        }
    }
}
