package membound.benchmarks.suite;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

import membound.hardware.host.LoadMonitor;

/**
 * JMH's output passed on unchanged, while the cpu time other processes took during each benchmark is read from a
 * {@link LoadMonitor}: what {@code jmh:run} needs to flag {@code load-seen} as {@code calibrate} does. Where there is
 * no monitor (no {@code /proc}), nothing is recorded and {@link #monitored()} says so.
 */
public final class LoadWatch implements OutputFormat {

    private final OutputFormat delegate;
    private final LoadMonitor monitor;
    private final Map<String, Double> otherCpus = new HashMap<>();
    private long startedNanos;

    /** @param monitor the monitor of other processes, or null where load cannot be read */
    public LoadWatch(OutputFormat delegate, LoadMonitor monitor) {
        this.delegate = delegate;
        this.monitor = monitor;
    }

    public boolean monitored() {
        return monitor != null;
    }

    /** The cpus other processes used while the benchmark of {@code params} ran; null when not monitored. */
    public Double otherCpus(BenchmarkParams params) {
        return otherCpus.get(key(params));
    }

    private static String key(BenchmarkParams params) {
        return params.id();
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        startedNanos = System.nanoTime();
        delegate.startBenchmark(benchParams);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        if (monitor != null && result != null) {
            otherCpus.put(key(result.getParams()), monitor.otherCpus(startedNanos, System.nanoTime()));
        }
        delegate.endBenchmark(result);
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        delegate.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
                                IterationResult data) {
        delegate.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void startRun() {
        delegate.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        delegate.endRun(result);
    }

    @Override
    public void print(String s) {
        delegate.print(s);
    }

    @Override
    public void println(String s) {
        delegate.println(s);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public void verbosePrintln(String s) {
        delegate.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        delegate.write(b);
    }

    @Override
    public void write(byte[] b) throws java.io.IOException {
        delegate.write(b);
    }
}
