package membound.benchmarks.suite;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
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

/**
 * JMH's output during a suite run as one line per benchmark: {@code [3/12] Triad double, 2 threads ..... 24.1
 * GB/s}, a dot per iteration. JMH's own text is not printed but its last lines are kept, to explain a failure
 * (a forked VM's error and stack trace land there). Subclasses say what a benchmark is called and what its
 * result line shows.
 */
public abstract class ProgressOutput implements OutputFormat {

    private static final int KEPT_LINES = 60;

    private final PrintWriter out;
    private final int total;
    private final Deque<String> jmhLines = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private int started;

    protected ProgressOutput(PrintWriter out, int total) {
        this.out = out;
        this.total = total;
    }

    /** What the line calls the benchmark about to run. */
    protected abstract String label(BenchmarkParams params);

    /** What the line shows once the benchmark has run. */
    protected abstract String figure(RunResult result);

    /** The last lines JMH printed. */
    public List<String> jmhTail() {
        return List.copyOf(jmhLines);
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        started++;
        out.printf(Locale.ROOT, "[%d/%d] %s ", started, total, label(params));
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
        out.println(result == null ? " failed" : " " + figure(new RunResult(result.getParams(), List.of(result))));
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
        print(new String(b, StandardCharsets.UTF_8));
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
