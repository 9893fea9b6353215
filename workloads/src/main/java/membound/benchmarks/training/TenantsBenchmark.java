package membound.benchmarks.training;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import membound.benchmarks.jvm.ForkFlags;
import membound.benchmarks.tenant.TenantConnection;
import membound.benchmarks.tenant.TenantProtocol.Command;
import membound.benchmarks.tenant.TenantProtocol.Request;
import membound.benchmarks.tenant.TenantProtocol.TenantFailedException;
import membound.vocabulary.BadInputException;

/**
 * Workload 4: the AdamW step of {@link OptimizerBenchmark} run by several tenants at once, each a JVM of its
 * own ({@link TenantMain}) with its own parameters and its share of the cpus, all sharing the memory
 * bandwidth, as several users or jobs on one machine do. One operation is one step of every tenant, started
 * together (the parent sends each its command, then waits for all): the score is the step as the slowest
 * tenant saw it, and {@link TenantStepTimes} reports each tenant's own.
 *
 * <p><b>Expected shape.</b> Each tenant moves the same bytes as a single optimizer step of the same size, over
 * its share of the bandwidth: with the memory saturated, K tenants take about K times as long per step as
 * one tenant with every cpu does.
 *
 * <p><b>Pitfalls guarded against.</b> Tenants build and touch their arrays before the first step; each resets
 * to its starting values before every iteration and replays its steps with the scalar twins after it; a
 * tenant whose parent dies sees its stdin close and exits.
 *
 * <p>HOW TO RUN: {@code mvn -pl benchmarks jmh:run -Djmh.include=TenantsBenchmark -Djmh.prof=membound.benchmarks.training.TenantStepTimes}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT})
@State(Scope.Benchmark)
public class TenantsBenchmark {

    /** Processes sharing the machine. */
    @Param({"2"})
    public int tenants;

    /** FP32 parameters each tenant updates per step. */
    @Param({"33554432"})
    public long parameters;

    /** Heap beyond a tenant's arrays: the JIT, the collector and the JVM's own needs. */
    static final long TENANT_HEAP_HEADROOM_BYTES = 256L << 20;

    private final List<TenantConnection> running = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (tenants < 1 || tenants > 64) {
            throw new BadInputException("tenants must be from 1 to 64: tenants=" + tenants);
        }
        int threads = threadsPerTenant(Runtime.getRuntime().availableProcessors(), tenants);
        for (int t = 0; t < tenants; t++) {
            ProcessBuilder builder = new ProcessBuilder(command(parameters, threads));
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
            running.add(new TenantConnection(builder.start(), () -> "its stderr is above"));
        }
        for (int t = 0; t < running.size(); t++) {
            try {
                running.get(t).awaitReady();
            } catch (IOException e) {
                throw new IllegalStateException("tenant " + (t + 1) + " did not start: " + e.getMessage(), e);
            }
        }
    }

    /** Heap a fork holds: none to speak of, the tenants' arrays live in their own JVMs (sized by {@link #command}). */
    public static long footprintBytes() {
        return 0;
    }

    /** Cpus each tenant's team gets: an even share, at least one. */
    public static int threadsPerTenant(int cpus, int tenants) {
        return Math.max(1, cpus / tenants);
    }

    /** The child's command line: this JVM's java, class path, and the options that shape memory behaviour. */
    static List<String> command(long parameters, int threads) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(ForkFlags.VECTOR_MODULE);
        long heap = OptimizerStep.footprintBytes(parameters) + TENANT_HEAP_HEADROOM_BYTES;
        command.add("-Xmx" + (heap >> 20) + "m");
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // Huge pages or not, as the parent (and so the calibration) ran.
            if (argument.equals("-XX:+UseTransparentHugePages") || argument.equals("-XX:-UseTransparentHugePages")) {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(TenantMain.class.getName());
        command.add(Long.toString(parameters));
        command.add(Integer.toString(threads));
        return command;
    }

    @Setup(Level.Iteration)
    public void reset() throws IOException {
        everyTenant(Command.RESET);
    }

    @Benchmark
    public long step() throws IOException {
        long[] nanos = everyTenant(Command.STEP);
        TenantStepTimes.record(nanos);
        long slowest = 0;
        for (long n : nanos) {
            slowest = Math.max(slowest, n);
        }
        return slowest;
    }

    @TearDown(Level.Iteration)
    public void check() throws IOException {
        everyTenant(Command.CHECK);
    }

    /**
     * Sends {@code command} to every tenant (so they start together), then collects every answer: the first value of
     * each (a step's nanoseconds), 0 for a command that answers none.
     */
    private long[] everyTenant(Command command) throws IOException {
        Request request = Request.of(command);
        for (TenantConnection tenant : running) {
            tenant.send(request);
        }
        long[] answers = new long[running.size()];
        for (int t = 0; t < running.size(); t++) {
            try {
                long[] values = running.get(t).answer(request);
                answers[t] = values.length > 0 ? values[0] : 0;
            } catch (IOException | TenantFailedException e) {
                throw new IllegalStateException("tenant " + (t + 1) + " failed '" + request.line() + "': "
                        + e.getMessage(), e);
            }
        }
        return answers;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (TenantConnection tenant : running) {
            tenant.close();
        }
        running.clear();
    }
}
