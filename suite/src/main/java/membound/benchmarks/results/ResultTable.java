package membound.benchmarks.results;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import membound.benchmarks.placement.Placement;
import membound.vocabulary.units.RateStatistics;
import membound.vocabulary.units.Units;

/**
 * The table that ends a suite run: per STREAM result the bandwidth under both byte conventions, its
 * spread, and the ratio of the hardware figure to the host's nominal bandwidth.
 */
public final class ResultTable {

    private ResultTable() {
    }

    /** Prints a section per kind of result present: bandwidth, latency, compute; no load was watched. */
    public static void print(PrintStream out, List<org.openjdk.jmh.results.RunResult> all, Nominal nominal) {
        print(out, all, nominal, null);
    }

    /**
     * Prints a section per kind of result present, each rate with the flags {@code calibrate} would give it
     * ({@link RunFlags}: {@code noisy}, and {@code load-seen} from {@code load}), then one line per flag.
     *
     * @param load the other processes' cpus per benchmark, or null where load was not watched
     */
    public static void print(PrintStream out, List<org.openjdk.jmh.results.RunResult> all, Nominal nominal,
                             membound.benchmarks.suite.LoadWatch load) {
        List<String> flags = new java.util.ArrayList<>();
        List<org.openjdk.jmh.results.RunResult> streams = all.stream().filter(StreamResult::isStream).toList();
        printBandwidth(out, streams.stream().map(StreamResult::of).toList(),
                streams.stream().map(r -> otherCpus(load, r)).toList(), nominal, flags);
        printLatency(out, all.stream().filter(LatencyResult::isLatency).map(LatencyResult::of).toList());
        List<ComputeResult> computes = new java.util.ArrayList<>();
        List<Double> computeLoads = new java.util.ArrayList<>();
        for (org.openjdk.jmh.results.RunResult r : all.stream().filter(ComputeResult::isCompute).toList()) {
            for (ComputeResult c : ComputeResult.of(r)) {
                computes.add(c);
                computeLoads.add(otherCpus(load, r));
            }
        }
        printCompute(out, computes, computeLoads, flags);
        List<org.openjdk.jmh.results.RunResult> elementwise = all.stream().filter(ElementwiseResult::isElementwise).toList();
        printElementwise(out, elementwise.stream().map(ElementwiseResult::of).toList(),
                elementwise.stream().map(r -> otherCpus(load, r)).toList(), flags);
        printTraining(out, all.stream().filter(ResultTable::isTraining).toList());
        if (!flags.isEmpty() || load == null || !load.monitored()) {
            out.println();
        }
        for (String flag : flags) {
            out.println(flag);
        }
        if (load == null || !load.monitored()) {
            out.println("load: not watched (no /proc/stat): a figure that shared the machine cannot be flagged load-seen");
        }
    }

    private static Double otherCpus(membound.benchmarks.suite.LoadWatch load, org.openjdk.jmh.results.RunResult r) {
        return load == null ? null : load.otherCpus(r.getParams());
    }

    /** The flag lines of one figure, as calibrate prints them. */
    private static void flagLines(List<String> flags, String what, RateStatistics rates, Double otherCpus) {
        if (RunFlags.noisy(rates.coefficientOfVariation())) {
            flags.add("flag noisy " + what + ": " + RunFlags.noisyMessage(rates.coefficientOfVariation(), rates.samples()));
        }
        if (otherCpus != null && RunFlags.loadSeen(otherCpus)) {
            flags.add("flag load-seen " + what + ": " + RunFlags.loadSeenMessage(otherCpus));
        }
    }

    /** A training workload's result: one operation is one training step. */
    static boolean isTraining(org.openjdk.jmh.results.RunResult result) {
        return result.getParams().getBenchmark().startsWith("membound.benchmarks.training.");
    }

    static void printTraining(PrintStream out, List<org.openjdk.jmh.results.RunResult> results) {
        if (results.isEmpty()) {
            return;
        }
        out.println();
        out.println("membound: training steps (ms per step; median [p5-p95] over every step; "
                + "membound validate predicts them from a profile)");
        out.println(String.format(Locale.ROOT, "%-22s %-44s %-26s %7s", "workload", "parameters", "ms per step",
                "steps"));
        for (org.openjdk.jmh.results.RunResult result : results) {
            String name = result.getParams().getBenchmark();
            String simple = name.substring(0, name.lastIndexOf('.'));
            simple = simple.substring(simple.lastIndexOf('.') + 1);
            StringBuilder parameters = new StringBuilder();
            for (String key : result.getParams().getParamsKeys()) {
                parameters.append(parameters.length() == 0 ? "" : " ").append(key).append('=')
                        .append(result.getParams().getParam(key));
            }
            PassTimes times = PassTimes.of(result.getPrimaryResult());
            out.println(String.format(Locale.ROOT, "%-22s %-44s %-26s %7d", simple, parameters,
                    String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", times.percentileNanos(50) / 1e6,
                            times.percentileNanos(5) / 1e6, times.percentileNanos(95) / 1e6), times.count()));
        }
    }

    static void printBandwidth(PrintStream out, List<StreamResult> results, List<Double> loads, Nominal nominal,
                               List<String> flags) {
        if (results.isEmpty()) {
            return;
        }
        out.println();
        out.println("membound: memory bandwidth, GB = 10^9 bytes; median of all passes [p5-p95], best = fastest pass");
        // Nothing here measured whether this CPU's stores allocate: the hardware figures assume they do.
        boolean allocate = membound.benchmarks.stream.StreamKernel.ASSUMED_STORES_ALLOCATE;
        String header = String.format(Locale.ROOT, "%-8s %-6s %-6s %7s  %-20s %-24s %-6s %-24s %6s  %-16s  %s",
                "kernel", "type", "impl", "threads", "working set (array)", "STREAM GB/s", "factor", "hardware GB/s",
                "CV", "hardware/nominal", "flags");
        // Only runs that chose a placement (core types, clusters) need the column.
        boolean placed = results.stream().anyMatch(r -> !r.placement().equals(Placement.ALL));
        out.println(placed ? header + "  placement" : header);
        for (int i = 0; i < results.size(); i++) {
            StreamResult result = results.get(i);
            RateStatistics stream = result.streamBytesPerSecond();
            RateStatistics hardware = result.hardwareBytesPerSecond(allocate);
            String what = String.format(Locale.ROOT, "%s %s %s, %d threads, %s %s", result.workload().kernel().label(),
                    result.workload().elementType().javaName(), result.implementation().name().toLowerCase(Locale.ROOT),
                    result.workload().threads(), result.workingSetLabel(), Units.formatBytes(result.workload().arrayBytes()));
            flagLines(flags, what, stream, loads.get(i));
            out.println(String.format(Locale.ROOT, "%-8s %-6s %-6s %7d  %-20s %-24s %-6s %-24s %5.1f%%  %-16s  %s",
                    result.workload().kernel().label(),
                    result.workload().elementType().javaName(),
                    result.implementation().name().toLowerCase(Locale.ROOT),
                    result.workload().threads(),
                    result.workingSetLabel() + " " + Units.formatBytes(result.workload().arrayBytes()),
                    spread(stream), result.workload().kernel().hardwareFactorLabel(allocate),
                    spread(hardware) + String.format(Locale.ROOT, " best %.1f", hardware.best() / 1e9),
                    100 * hardware.coefficientOfVariationOrZero(),
                    nominal.ratio(hardware.median()).map(r -> String.format(Locale.ROOT, "%.2f", r)).orElse("unknown"),
                    RunFlags.column(stream, loads.get(i)))
                    + (placed ? "  " + result.placement() : ""));
        }
        out.println();
        out.println("nominal memory bandwidth: " + nominal.bytesPerSecond().map(Units::formatBandwidth).orElse("unknown")
                + " (" + nominal.source() + ")");
        out.println("STREAM GB/s counts only the bytes the code reads and writes (Copy/Scale 2 arrays, Add/Triad 3, "
                + "Dot 2, Nstream 4, Sum 1, Fill 1).");
        out.println("hardware GB/s = STREAM GB/s x factor, which adds write-allocate (a store first reads its line: "
                + "Copy/Scale x1.5, Add/Triad x4/3, Fill x2; Sum, Dot, Nstream x1).");
        out.println("That factor is assumed here, not measured: Java cannot issue non-temporal stores, but some CPUs "
                + "stop allocating on a stream of full-line stores (Arm's write-streaming mode, some x86 cores).");
        out.println("membound calibrate measures whether this CPU's stores allocate (Fill against Sum at DRAM) and its "
                + "profile says so (membound show); where they do not, the hardware figure is the STREAM one.");
    }

    static void printLatency(PrintStream out, List<LatencyResult> results) {
        if (results.isEmpty()) {
            return;
        }
        out.println();
        out.println("membound: load latency, pointer chase through a random cycle of 64-byte lines; ns per load, "
                + "percentiles over chases of " + membound.benchmarks.latency.LatencyBenchmark.STEPS_PER_INVOCATION + " loads");
        out.println(String.format(Locale.ROOT, "%-24s %8s %8s %8s %8s", "working set", "p50", "p90", "p99", "mean"));
        for (LatencyResult result : results) {
            out.println(String.format(Locale.ROOT, "%-24s %8.2f %8.2f %8.2f %8.2f",
                    result.workingSet().label() + " " + Units.formatBytes(result.workingSet().arrayBytes()),
                    result.nanosPerLoad(50), result.nanosPerLoad(90), result.nanosPerLoad(99),
                    result.meanNanosPerLoad()));
        }
    }

    static void printCompute(PrintStream out, List<ComputeResult> results, List<Double> loads, List<String> flags) {
        if (results.isEmpty()) {
            return;
        }
        out.println();
        out.println("membound: compute ceilings (FLOP/s; median [p5-p95], best = fastest pass)");
        out.println(String.format(Locale.ROOT, "%-9s %-6s %7s %-18s  %-32s %6s  %s", "kernel", "type", "threads",
                "n or shape", "GFLOP/s", "CV", "flags"));
        for (int i = 0; i < results.size(); i++) {
            ComputeResult result = results.get(i);
            RateStatistics flops = result.flopsPerSecond();
            String size = result.shape() != null ? result.shape().toString()
                    : result.matrixOrder() == 0 ? "-" : Integer.toString(result.matrixOrder());
            flagLines(flags, String.format(Locale.ROOT, "%s %s, %d threads, %s", result.kind(), result.elementType(),
                    result.threads(), size), flops, loads.get(i));
            out.println(String.format(Locale.ROOT, "%-9s %-6s %7d %-18s  %-32s %5.1f%%  %s", result.kind(), result.elementType(),
                    result.threads(), size,
                    String.format(Locale.ROOT, "%.1f [%.1f-%.1f] best %.1f", flops.median() / 1e9, flops.p5() / 1e9,
                            flops.p95() / 1e9, flops.best() / 1e9),
                    100 * flops.coefficientOfVariationOrZero(), RunFlags.column(flops, loads.get(i))));
        }
    }

    static void printElementwise(PrintStream out, List<ElementwiseResult> results, List<Double> loads,
                                 List<String> flags) {
        if (results.isEmpty()) {
            return;
        }
        out.println();
        out.println("membound: elementwise operations (elements per second; median [p5-p95], best = fastest pass)");
        out.println(String.format(Locale.ROOT, "%-18s %6s %7s  %-32s %6s  %s", "operation", "row", "threads",
                "G elements/s", "CV", "flags"));
        for (int i = 0; i < results.size(); i++) {
            ElementwiseResult result = results.get(i);
            RateStatistics rate = result.elementsPerSecond();
            flagLines(flags, String.format(Locale.ROOT, "%s, rows of %d, %d threads", result.operation().label(),
                    result.row(), result.threads()), rate, loads.get(i));
            out.println(String.format(Locale.ROOT, "%-18s %6d %7d  %-32s %5.1f%%  %s", result.operation().label(),
                    result.row(), result.threads(), String.format(Locale.ROOT, "%.2f [%.2f-%.2f] best %.2f",
                            rate.median() / 1e9, rate.p5() / 1e9, rate.p95() / 1e9, rate.best() / 1e9),
                    100 * rate.coefficientOfVariationOrZero(), RunFlags.column(rate, loads.get(i))));
        }
    }

    private static String spread(RateStatistics rate) {
        return String.format(Locale.ROOT, "%.1f [%.1f-%.1f]", rate.median() / 1e9, rate.p5() / 1e9, rate.p95() / 1e9);
    }
}
