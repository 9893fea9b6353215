package membound.validate;

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

import membound.benchmarks.results.PassTimes;

/**
 * JMH's output during a validation as one line per workload: {@code [2/4] MLP training step ..... 182.4 ms
 * per step}. JMH's own text is kept (the last lines) to explain a failure.
 */
final class ProgressLines implements OutputFormat {

    private static final int KEPT_LINES = 60;

    private final PrintWriter out;
    private final int total;
    private final Deque<String> jmhLines = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private int started;

    ProgressLines(PrintWriter out, int total) {
        this.out = out;
        this.total = total;
    }

    List<String> jmhTail() {
        return List.copyOf(jmhLines);
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        started++;
        out.printf(Locale.ROOT, "[%d/%d] %s ", started, total,
                ReferenceWorkload.ofBenchmark(params.getBenchmark()).label());
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
        if (result == null) {
            out.println(" failed");
        } else {
            PassTimes times = PassTimes.of(new RunResult(result.getParams(), List.of(result)).getPrimaryResult());
            out.printf(Locale.ROOT, " %s per step%n", Format.seconds(times.percentileNanos(50) / 1e9));
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
    public void write(byte[] b) {
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
}
