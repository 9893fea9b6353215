package membound.calibrator.run;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.results.ComputeResult;
import membound.benchmarks.results.ElementwiseResult;
import membound.benchmarks.results.LatencyResult;
import membound.benchmarks.results.StreamResult;
import membound.benchmarks.suite.ProgressOutput;
import membound.hardware.host.LoadMonitor;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.Units;

/**
 * JMH's output during a calibration, as one line per measurement: {@code [3/12] Triad double, 2 threads,
 * DRAM 1.98 GiB ..... 24.1 GB/s}. JMH's own text is kept (the last lines) to explain a failure.
 */
final class ProgressFormat extends ProgressOutput {

    private final LoadMonitor load;
    private final List<LoadReport.Loaded> loaded = new java.util.ArrayList<>();
    private long startedNanos;
    private String current;
    /** What {@link #endBenchmark} adds to the line when the measurement shared the machine. */
    private String shared = "";

    /** @param load the monitor of other processes' cpu time, or null where there is none */
    ProgressFormat(PrintWriter out, int total, LoadMonitor load) {
        super(out, total);
        this.load = load;
    }

    /** The measurements during which other processes used more than the threshold. */
    List<LoadReport.Loaded> loaded() {
        return List.copyOf(loaded);
    }

    @Override
    protected String label(BenchmarkParams params) {
        current = describe(params);
        startedNanos = System.nanoTime();
        return current;
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        if (load != null) {
            double other = load.otherCpus(startedNanos, System.nanoTime());
            if (other > LoadMonitor.OTHER_CPUS_THRESHOLD) {
                loaded.add(new LoadReport.Loaded(current, other));
                shared = String.format(Locale.ROOT, "  (other processes used %.2f cpus meanwhile: flagged)", other);
            }
        }
        super.endBenchmark(result);
        shared = "";
    }

    @Override
    protected String figure(RunResult result) {
        return figureOf(result) + shared;
    }

    static String describe(BenchmarkParams params) {
        String name = params.getBenchmark();
        String simple = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1, name.lastIndexOf('.'));
        StringBuilder text = new StringBuilder();
        switch (simple) {
            case "StreamBenchmark" -> text.append(capitalized(params.getParam("kernel"))).append(' ')
                    .append(params.getParam("elementType"))
                    .append("scalar".equals(params.getParam("implementation")) ? " (scalar)" : "")
                    .append(", ").append(params.getParam("threads")).append(" threads, ")
                    .append(size(params.getParam("workingSet")));
            case "LatencyBenchmark" -> text.append("Latency ").append(size(params.getParam("workingSet")));
            case "FmaBenchmark" -> text.append("FMA peak ").append(params.getParam("elementType")).append(", ")
                    .append(params.getParam("threads")).append(" threads");
            case "GemmBenchmark" -> text.append("GEMM ").append(params.getParam("elementType")).append(" n=")
                    .append(params.getParam("n")).append(", ").append(params.getParam("threads")).append(" threads");
            case "ProductBenchmark" -> text.append("Products float (")
                    .append(ProductShape.parseList(params.getParam("products")).size()).append(" shapes), ")
                    .append(params.getParam("threads")).append(" threads");
            case "ElementwiseBenchmark" -> text.append("Elementwise ").append(params.getParam("operation")).append(", rows of ")
                    .append(params.getParam("row")).append(", ").append(params.getParam("threads")).append(" threads");
            default -> text.append(simple);
        }
        return text.toString();
    }

    private static String size(String workingSet) {
        int separator = workingSet.indexOf(':');
        if (separator < 0) {
            return workingSet;
        }
        return workingSet.substring(0, separator) + " "
                + Units.formatBytes(Long.parseLong(workingSet.substring(separator + 1)));
    }

    private static String capitalized(String kernel) {
        return kernel.charAt(0) + kernel.substring(1).toLowerCase(Locale.ROOT);
    }

    static String figureOf(RunResult result) {
        if (StreamResult.isStream(result)) {
            return Units.formatBandwidth(StreamResult.of(result).streamBytesPerSecond().median()) + " (STREAM bytes)";
        }
        if (LatencyResult.isLatency(result)) {
            return String.format(Locale.ROOT, "%.2f ns per load", LatencyResult.of(result).nanosPerLoad(50));
        }
        if (ElementwiseResult.isElementwise(result)) {
            return String.format(Locale.ROOT, "%.2f G elements/s",
                    ElementwiseResult.of(result).elementsPerSecond().median() / 1e9);
        }
        if (ComputeResult.isCompute(result)) {
            List<ComputeResult> figures = ComputeResult.of(result);
            if (figures.size() == 1 && figures.get(0).shape() == null) {
                return Units.formatFlops(figures.get(0).flopsPerSecond().median());
            }
            // A product run: each shape's median, in the order they ran.
            return String.join(", ", figures.stream().map(f -> f.shape() + " "
                    + Units.formatFlops(f.flopsPerSecond().median())).toList());
        }
        return "";
    }
}
