package membound.benchmarks.training;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
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

    private final List<Tenant> running = new ArrayList<>();

    /** One child JVM and its command pipe. */
    private static final class Tenant {
        final Process process;
        final Writer commands;
        final BufferedReader answers;

        Tenant(Process process) {
            this.process = process;
            this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        void send(String command) throws IOException {
            commands.write(command + "\n");
            commands.flush();
        }

        long answer(int index, String command) throws IOException {
            String line = answers.readLine();
            if (line == null) {
                throw new IllegalStateException("tenant " + index + " exited during '" + command + "'");
            }
            if (!line.startsWith("done ")) {
                throw new IllegalStateException("tenant " + index + " failed '" + command + "': " + line);
            }
            return Long.parseLong(line.substring("done ".length()).trim());
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (tenants < 1 || tenants > 64) {
            throw new BadInputException("tenants must be from 1 to 64: tenants=" + tenants);
        }
        int threads = threadsPerTenant(Runtime.getRuntime().availableProcessors(), tenants);
        for (int t = 0; t < tenants; t++) {
            ProcessBuilder builder = new ProcessBuilder(command(parameters, threads));
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
            running.add(new Tenant(builder.start()));
        }
        for (int t = 0; t < running.size(); t++) {
            String line = running.get(t).answers.readLine();
            if (!"ready".equals(line)) {
                throw new IllegalStateException("tenant " + (t + 1) + " did not start: " + line);
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
        everyTenant("reset");
    }

    @Benchmark
    public long step() throws IOException {
        long[] nanos = everyTenant("step");
        TenantStepTimes.record(nanos);
        long slowest = 0;
        for (long n : nanos) {
            slowest = Math.max(slowest, n);
        }
        return slowest;
    }

    @TearDown(Level.Iteration)
    public void check() throws IOException {
        everyTenant("check");
    }

    /** Sends {@code command} to every tenant (so they start together), then collects every answer. */
    private long[] everyTenant(String command) throws IOException {
        for (Tenant tenant : running) {
            tenant.send(command);
        }
        long[] answers = new long[running.size()];
        for (int t = 0; t < running.size(); t++) {
            answers[t] = running.get(t).answer(t + 1, command);
        }
        return answers;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        for (Tenant tenant : running) {
            try {
                tenant.send("quit");
            } catch (IOException e) {
                // already gone
            }
        }
        for (Tenant tenant : running) {
            if (!tenant.process.waitFor(10, TimeUnit.SECONDS)) {
                tenant.process.destroyForcibly();
            }
        }
        running.clear();
    }
}
