package membound.calibrator.run;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

import membound.benchmarks.results.ComputeResult;
import membound.benchmarks.results.LatencyResult;
import membound.benchmarks.results.StreamResult;
import membound.hardware.units.Units;

/**
 * JMH's output during a calibration, as one line per measurement: {@code [3/12] Triad double, 2 threads,
 * DRAM 1.98 GiB ..... 24.1 GB/s}. JMH's own text is kept (the last lines) to explain a failure.
 */
final class ProgressFormat implements OutputFormat {

    private static final int KEPT_LINES = 60;

    private final PrintWriter out;
    private final int total;
    private final LoadMonitor load;
    private final List<LoadReport.Loaded> loaded = new java.util.ArrayList<>();
    private long startedNanos;
    private String current;
    private final Deque<String> jmhLines = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private int started;

    /** @param load the monitor of other processes' cpu time, or null where there is none */
    ProgressFormat(PrintWriter out, int total, LoadMonitor load) {
        this.out = out;
        this.total = total;
        this.load = load;
    }

    /** The measurements during which other processes used more than the threshold. */
    List<LoadReport.Loaded> loaded() {
        return List.copyOf(loaded);
    }

    /** The last lines JMH printed: forked-VM errors and stack traces land here. */
    List<String> jmhTail() {
        return List.copyOf(jmhLines);
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        started++;
        current = describe(params);
        startedNanos = System.nanoTime();
        out.printf(Locale.ROOT, "[%d/%d] %s ", started, total, current);
        out.flush();
    }

    @Override
    public void iteration(BenchmarkParams benchmarkParams, IterationParams params, int iteration) {
    }

    @Override
    public void iterationResult(BenchmarkParams benchmarkParams, IterationParams params, int iteration,
            IterationResult data) {
        out.print('.');
        out.flush();
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        String shared = "";
        if (load != null) {
            double other = load.otherCpus(startedNanos, System.nanoTime());
            if (other > LoadMonitor.OTHER_CPUS_THRESHOLD) {
                loaded.add(new LoadReport.Loaded(current, other));
                shared = String.format(Locale.ROOT, "  (other processes used %.2f cpus meanwhile: flagged)", other);
            }
        }
        if (result == null) {
            out.println(" failed");
        } else {
            out.println(" " + figure(new RunResult(result.getParams(), List.of(result))) + shared);
        }
        out.flush();
    }

    @Override
    public void startRun() {
    }

    @Override
    public void endRun(Collection<RunResult> result) {
    }

    @Override
    public void print(String s) {
        for (char c : s.toCharArray()) {
            if (c == '\n') {
                keep(partial.toString());
                partial.setLength(0);
            } else {
                partial.append(c);
            }
        }
    }

    @Override
    public void println(String s) {
        print(s + "\n");
    }

    @Override
    public void verbosePrintln(String s) {
        println(s);
    }

    @Override
    public void write(int b) {
        print(String.valueOf((char) b));
    }

    @Override
    public void write(byte[] b) throws IOException {
        print(new String(b, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.flush();
    }

    private void keep(String line) {
        if (line.startsWith("WARNING: Using incubator modules")) {
            return;
        }
        jmhLines.addLast(line);
        while (jmhLines.size() > KEPT_LINES) {
            jmhLines.removeFirst();
        }
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

    static String figure(RunResult result) {
        if (StreamResult.isStream(result)) {
            return Units.formatBandwidth(StreamResult.of(result).streamBytesPerSecond().median()) + " (STREAM bytes)";
        }
        if (LatencyResult.isLatency(result)) {
            return String.format(Locale.ROOT, "%.2f ns per load", LatencyResult.of(result).nanosPerLoad(50));
        }
        if (ComputeResult.isCompute(result)) {
            return Units.formatFlops(ComputeResult.of(result).flopsPerSecond().median());
        }
        return "";
    }
}
