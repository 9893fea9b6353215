package membound.calibrator.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.LineAlignment;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamWorkload;
import membound.benchmarks.suite.SuitePlan;
import membound.benchmarks.tenant.StreamTenantMain;
import membound.benchmarks.tenant.TenantConnection;
import membound.benchmarks.tenant.TenantProtocol.Command;
import membound.benchmarks.tenant.TenantProtocol.Request;
import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.profile.TenantEntry;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.units.Units;

/**
 * How the memory bandwidth divides among tenants: for k = 1 ... K, k processes ({@link StreamTenantMain}),
 * each with its own arrays and its share of the cpus, stream Triad at the same time, as k users' jobs on one
 * machine do. Each tenant's arrays are 1/k of the DRAM working set, so together they span as much memory as
 * one tenant alone. Each run is a second of warm-up, then {@link #MEASURE_MILLIS} of passes back to back in
 * every tenant at once; each tenant's passes are checked against STREAM's closed form afterwards.
 *
 * <p>The runs go 1, 2, ..., K tenants, {@link #ROUNDS} times over, and each point pools the passes of its
 * rounds: the model uses the ratio of the points, and a machine whose speed drifts over seconds (a shared
 * VM's host) moves points measured one after another apart, while interleaved rounds share the drift. On the
 * development VM, one round of 3 s per point gave a 2-tenant share of 0.50 to 0.72 of one tenant's bandwidth
 * from one calibration to the next, while the AdamW tenants of validation each took twice one process's step.
 */
final class TenantsMeasurement {

    static final long WARMUP_MILLIS = 1000;
    static final long MEASURE_MILLIS = 2000;
    /** Interleaved rounds of 1 ... K tenants. */
    static final int ROUNDS = 3;
    private static final StreamKernel KERNEL = StreamKernel.TRIAD;
    private static final long READY_TIMEOUT_SECONDS = 600;

    private TenantsMeasurement() {
    }

    /**
     * Tenants 1 ... {@code maxTenants}, each curve point a {@link TenantEntry}.
     *
     * @param arrayBytes the bytes of each array of one tenant alone (the DRAM working set); k tenants get 1/k each
     * @param minimumDramArrayBytes 4x the last-level cache: smaller arrays are not recorded as DRAM
     */
    static List<TenantEntry> measure(int maxTenants, int cpus, long arrayBytes, long minimumDramArrayBytes,
            boolean hugePages, String jvm, Map<String, String> settings, PrintWriter progress) {
        return measure(maxTenants, cpus, arrayBytes, minimumDramArrayBytes, hugePages, jvm, settings, progress,
                WARMUP_MILLIS, MEASURE_MILLIS, ROUNDS);
    }

    /** As above, with the warm-up, measurement and rounds given (a smoke run's are short, one round). */
    static List<TenantEntry> measure(int maxTenants, int cpus, long arrayBytes, long minimumDramArrayBytes,
            boolean hugePages, String jvm, Map<String, String> settings, PrintWriter progress, long warmupMillis,
            long measureMillis, int rounds) {
        List<TenantEntry> entries = new ArrayList<>();
        long dramArrayBytes = arrayBytes;
        List<Histogram> pooled = new ArrayList<>();
        List<List<Double>> totals = new ArrayList<>();
        for (int tenants = 1; tenants <= maxTenants; tenants++) {
            pooled.add(new Histogram(3));
            totals.add(new ArrayList<>());
        }
        for (int round = 1; round <= rounds; round++) {
            for (int tenants = 1; tenants <= maxTenants; tenants++) {
                StreamWorkload workload = workload(tenants, cpus, dramArrayBytes);
                progress.printf(Locale.ROOT, "[tenants %d/%d%s] %d tenant%s x %d thread%s, Triad on %s arrays each ",
                        tenants, maxTenants, rounds > 1 ? ", round " + round + "/" + rounds : "", tenants,
                        tenants == 1 ? "" : "s", workload.threads(), workload.threads() == 1 ? "" : "s",
                        Units.formatBytes(workload.arrayBytes()));
                progress.flush();
                List<Histogram> passTimes = run(tenants, workload, hugePages, jvm, progress, warmupMillis, measureMillis);
                double total = 0;
                for (Histogram tenant : passTimes) {
                    pooled.get(tenants - 1).add(tenant);
                    total += workload.streamBytesPerPass() * 1e9 / tenant.getValueAtPercentile(50);
                }
                totals.get(tenants - 1).add(total);
                progress.printf(Locale.ROOT, " total %s%n", Units.formatBandwidth(total));
                progress.flush();
            }
        }
        for (int tenants = 1; tenants <= maxTenants; tenants++) {
            StreamWorkload workload = workload(tenants, cpus, dramArrayBytes);
            MemoryLevel level = dramArrayBytes >= minimumDramArrayBytes ? MemoryLevel.DRAM : MemoryLevel.L3;
            Distribution perTenant = Distribution.ofDurationHistogram(workload.streamBytesPerPass(),
                    pooled.get(tenants - 1));
            List<Double> sorted = totals.get(tenants - 1).stream().sorted().toList();
            double total = sorted.get(sorted.size() / 2);
            entries.add(new TenantEntry(tenants, KERNEL.name().toLowerCase(Locale.ROOT), "double", workload.threads(),
                    level, perTenant, Distribution.single(total), Provenance.measured(
                            "StreamTenantMain Triad (vector), " + tenants + " processes at once, " + rounds
                                    + (rounds == 1 ? " run" : " interleaved runs") + " of " + measureMillis
                                    + " ms of passes each; per tenant: every pass pooled; total = the median run's "
                                    + "sum of the tenants' medians",
                            null, settings)));
            progress.printf(Locale.ROOT, "tenants %d: per tenant %s, total %s%n", tenants,
                    Units.formatBandwidth(perTenant.median()), Units.formatBandwidth(total));
            progress.flush();
        }
        return entries;
    }

    /** What each of {@code tenants} tenants streams: 1/k of the working set, its share of the cpus. */
    private static StreamWorkload workload(int tenants, int cpus, long dramArrayBytes) {
        return StreamWorkload.of(KERNEL, ElementType.DOUBLE, dramArrayBytes / tenants, Math.max(1, cpus / tenants));
    }

    private static List<Histogram> run(int count, StreamWorkload workload, boolean hugePages, String jvm,
            PrintWriter progress, long warmupMillis, long measureMillis) {
        List<TenantConnection> tenants = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                tenants.add(start(workload, hugePages, jvm));
            }
            for (TenantConnection tenant : tenants) {
                tenant.awaitReady();
            }
            runAll(tenants, warmupMillis);
            progress.print('.');
            progress.flush();
            List<long[]> answers = runAll(tenants, measureMillis);
            progress.print('.');
            progress.flush();
            List<Histogram> passTimes = new ArrayList<>();
            for (long[] passNanos : answers) {
                Histogram histogram = new Histogram(3);
                for (long nanos : passNanos) {
                    histogram.recordValue(Math.max(1, nanos));
                }
                passTimes.add(histogram);
            }
            for (TenantConnection tenant : tenants) {
                tenant.ask(Request.of(Command.CHECK));
            }
            return passTimes;
        } catch (IOException | RuntimeException e) {
            throw new CalibrationFailedException("a tenant of the " + count + "-tenant run failed: " + e.getMessage(),
                    List.of());
        } finally {
            for (TenantConnection tenant : tenants) {
                tenant.close();
            }
        }
    }

    /** Sends {@code run} to every tenant first, so they stream together, then collects each one's pass times. */
    private static List<long[]> runAll(List<TenantConnection> tenants, long millis) throws IOException {
        Request request = Request.run(millis);
        for (TenantConnection tenant : tenants) {
            tenant.send(request);
        }
        List<long[]> answers = new ArrayList<>();
        for (TenantConnection tenant : tenants) {
            answers.add(tenant.answer(request));
        }
        return answers;
    }

    /** A tenant process streaming {@code workload}, started (await its ready line before asking it to run). */
    static TenantConnection start(StreamWorkload workload, boolean hugePages, String jvm) throws IOException {
        // Each thread's slice of each array is one humongous G1 object, placed in contiguous regions and never
        // moved: threads allocating theirs at once can leave gaps no other slice fits in. With only 512 MiB over
        // the arrays, a 1-tenant Triad on 1.98 GiB arrays died of "Java heap space" in 2 of 4 calibrations;
        // one more slice of room is enough for any gap.
        long sliceBytes = workload.arrayBytes() / workload.threads();
        long heapBytes = workload.footprintBytes() + sliceBytes + (512L << 20);
        List<String> command = new ArrayList<>(List.of(jvm != null ? jvm
                : Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules=jdk.incubator.vector", "-Xmx" + (heapBytes >> 20) + "m",
                LineAlignment.OBJECT_ALIGNMENT_OPTION, LineAlignment.LAYOUT_EXPORT_OPTION));
        if (hugePages) {
            command.add(SuitePlan.HUGE_PAGES_OPTION);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), StreamTenantMain.class.getName(),
                workload.kernel().name(), workload.elementType().javaName(), Long.toString(workload.arrayBytes()),
                Integer.toString(workload.threads())));
        Process process = new ProcessBuilder(command).start();
        StringBuilder err = new StringBuilder();
        Thread drain = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    synchronized (err) {
                        err.append(line).append('\n');
                    }
                }
            } catch (IOException ignored) {
                // the tenant is gone: what it printed is already kept
            }
        }, "membound-tenant-stderr");
        drain.setDaemon(true);
        drain.start();
        return new TenantConnection(process, () -> lastLine(err));
    }

    /**
     * What stderr says went wrong: the last line that is not a stack frame (a {@code Caused by:} line, or the
     * exception and its message), else the last line.
     */
    static String lastLine(StringBuilder err) {
        synchronized (err) {
            List<String> lines = err.toString().lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("WARNING: Using incubator modules")).toList();
            if (lines.isEmpty()) {
                return "(nothing on stderr)";
            }
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i).strip();
                if (!line.startsWith("at ") && !(line.startsWith("...") && line.endsWith("more"))) {
                    return line;
                }
            }
            return lines.get(lines.size() - 1);
        }
    }
}
