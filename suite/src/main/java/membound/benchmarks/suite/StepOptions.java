package membound.benchmarks.suite;

import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import membound.benchmarks.jvm.ForkFlags;
import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.placement.CpuSetProfiler;
import membound.benchmarks.placement.Placement;
import membound.benchmarks.sizing.WorkingSet;

/**
 * The JMH options of one step of a plan: exactly its benchmark, the flags every fork runs with
 * ({@link ForkFlags}, as the benchmarks' {@code @Fork} names them), the fork's heap, pages and placement, the
 * benchmark's own profilers, and every parameter explicit; iterations, forks and the rest from the command line.
 */
final class StepOptions {

    private StepOptions() {
    }

    static Options of(SuiteRequest request, Options settings, int threads, List<WorkingSet> sizes, long heapBytes,
            boolean transparentHugePages, Placement placement) {
        // These replace the @Fork's jvmArgsAppend, so they repeat its flags.
        List<String> jvmArgs = new ArrayList<>(List.of(ForkFlags.VECTOR_MODULE, "-Xmx" + (heapBytes >> 20) + "m",
                ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT));
        if (transparentHugePages) {
            jvmArgs.add(SuitePlan.HUGE_PAGES_OPTION);
        }
        // The placement travels as JVM arguments: the fork binds its threads by them, the CpuSetProfiler confines
        // the fork by them, and JMH records them in every result, so the raw JSON says where it ran.
        jvmArgs.addAll(CpuBinding.jvmArguments(placement));
        if (settings.getJvmArgsAppend().hasValue()) {
            jvmArgs.addAll(settings.getJvmArgsAppend().get());
        }
        SuiteBenchmark benchmark = request.benchmark();
        ChainedOptionsBuilder options = new OptionsBuilder().parent(withoutIncludes(settings))
                .include(benchmark.include())
                .jvmArgsAppend(jvmArgs.toArray(String[]::new));
        if (placement.confinesFork()) {
            options.addProfiler(CpuSetProfiler.class);
        }
        benchmark.profilers().forEach(options::addProfiler);
        for (String name : SuiteBenchmark.allParameterNames()) {
            if (benchmark.defaults(name).length == 0) {
                continue;
            }
            String[] values = switch (name) {
                case "threads" -> new String[] {Integer.toString(threads)};
                case "workingSet" -> sizes.stream().map(WorkingSet::parameter).toArray(String[]::new);
                // JMH takes an enum constant by its exact name.
                case "kernel" -> request.values(name).stream().map(v -> v.trim().toUpperCase(Locale.ROOT))
                        .toArray(String[]::new);
                case "elementType", "implementation" -> request.values(name).stream()
                        .map(v -> v.trim().toLowerCase(Locale.ROOT)).toArray(String[]::new);
                default -> request.values(name).toArray(String[]::new);
            };
            options.param(name, values);
        }
        return options.build();
    }

    /**
     * The command line minus its includes and result file: JMH's builder adds a parent's includes to its own,
     * and each step must run exactly its one benchmark; the suite writes one result file for all steps.
     */
    static Options withoutIncludes(Options command) {
        return (Options) Proxy.newProxyInstance(Options.class.getClassLoader(), new Class<?>[] {Options.class},
                new WithoutIncludes(command));
    }

    /** Serializable, because JMH sends the options to every fork. */
    private static final class WithoutIncludes implements InvocationHandler, Serializable {
        private static final long serialVersionUID = 1L;
        private final Options command;

        WithoutIncludes(Options command) {
            this.command = command;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getParameterCount() == 0) {
                switch (method.getName()) {
                    case "getIncludes":
                        return new ArrayList<String>();
                    case "getResult":
                    case "getResultFormat":
                        return org.openjdk.jmh.util.Optional.none();
                    default:
                        break;
                }
            }
            try {
                return method.invoke(command, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
