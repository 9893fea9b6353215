package membound.calibrator.run;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamWorkload;
import membound.benchmarks.tenant.TenantConnection;
import membound.benchmarks.tenant.TenantProtocol.Request;
import membound.profile.WriteAllocation;
import membound.vocabulary.units.Units;

/**
 * The memory controller's read and write counters, read with {@code perf stat -a} while every cpu streams the
 * write-only kernel (Fill) in a process of its own: the most direct evidence of whether stores allocate (the controller
 * then reads a line for each it writes). Most hosts do not allow it, and the calibration says why:
 * <ul>
 *   <li>no memory-controller PMU under {@code /sys/bus/event_source/devices}: a virtual machine exposes none (the
 *       development VM lists only {@code breakpoint, msr, software, tracepoint, uprobe});</li>
 *   <li>a PMU whose read and write events membound does not know: only Intel's integrated memory controllers
 *       ({@code uncore_imc_*}, events {@code cas_count_read} and {@code cas_count_write}, named in sysfs) are read;
 *       AMD's data fabric and UMC PMUs and Arm's CMN have raw events that differ by model;</li>
 *   <li>no {@code perf} on the path, or not permitted (system-wide counting needs {@code perf_event_paranoid} 0 or
 *       below, or root): perf's own first error line.</li>
 * </ul>
 */
final class MemoryCounters {

    /** Where the kernel lists its PMUs. */
    static final Path EVENT_SOURCES = Path.of("/sys/bus/event_source/devices");
    /** How long the counted window is, and the warm-up before it. */
    static final long WINDOW_MILLIS = 2000;
    static final long WARMUP_MILLIS = 1000;
    /** PMU names that are memory controllers or fabrics (listed where membound cannot read them). */
    private static final List<String> MEMORY_PMUS = List.of("uncore_imc", "amd_umc", "amd_df", "arm_cmn", "arm_dmc",
            "arm_smmu", "nvidia_", "hisi_sccl", "dmc", "ddr");

    private MemoryCounters() {
    }

    /**
     * What the calibration learnt of the counters: what they counted during Fill, or why nothing was counted.
     *
     * @param counters the counts, or null
     * @param note     why no counts (or null where counts were read, or where nothing was tried)
     */
    record Reading(WriteAllocation.MemoryCounters counters, String note) {
        /** Nothing tried (a test's calibration, a profile built without the calibrator's run). */
        static final Reading NOT_TRIED = new Reading(null, null);
    }

    /** The read and write event of a memory-controller PMU, as perf names them. */
    record Events(String read, String write) {
    }

    /** The events this host's PMUs offer, or why none: one line. */
    record Probe(Optional<Events> events, String note) {
    }

    /** Which memory-controller events {@code eventSources} (the kernel's PMU list) offers. */
    static Probe probe(Path eventSources) {
        List<String> pmus;
        try (Stream<Path> listed = Files.list(eventSources)) {
            pmus = listed.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return new Probe(Optional.empty(), "no memory counters: " + eventSources + " cannot be listed");
        }
        for (String pmu : pmus) {
            Path events = eventSources.resolve(pmu).resolve("events");
            if (pmu.startsWith("uncore_imc") && Files.isRegularFile(events.resolve("cas_count_read"))
                    && Files.isRegularFile(events.resolve("cas_count_write"))) {
                return new Probe(Optional.of(new Events("uncore_imc/cas_count_read/", "uncore_imc/cas_count_write/")),
                        null);
            }
        }
        List<String> memory = pmus.stream().filter(p -> MEMORY_PMUS.stream().anyMatch(p::startsWith)).toList();
        if (!memory.isEmpty()) {
            return new Probe(Optional.empty(), "no memory counters: this host has memory PMUs ("
                    + String.join(", ", memory) + ") but membound knows read and write events only for Intel's "
                    + "uncore_imc (cas_count_read, cas_count_write)");
        }
        return new Probe(Optional.empty(), "no memory counters: no memory-controller PMU under " + eventSources
                + " (only " + String.join(", ", pmus) + "; a virtual machine exposes none)");
    }

    /**
     * The counts while a Fill process streams {@code arrayBytes} with {@code threads} threads, or why there are none.
     *
     * @param perf the perf command ({@code perf}, looked up on the path)
     */
    static Reading read(Path eventSources, String perf, int threads, long arrayBytes, boolean hugePages, String jvm,
                        PrintWriter progress, long warmupMillis, long windowMillis) {
        Probe probe = probe(eventSources);
        if (probe.events().isEmpty()) {
            return say(progress, new Reading(null, probe.note()));
        }
        Events events = probe.events().get();
        StreamWorkload workload = StreamWorkload.of(StreamKernel.FILL, ElementType.DOUBLE, arrayBytes, threads);
        String kernel = String.format(Locale.ROOT, "Fill (vector) on %s, %d thread%s", Units.formatBytes(arrayBytes),
                threads, threads == 1 ? "" : "s");
        progress.printf(Locale.ROOT, "[memory counters] %s under perf stat -a -e %s,%s ", kernel, events.read(),
                events.write());
        progress.flush();
        try (TenantConnection tenant = TenantsMeasurement.start(workload, hugePages, jvm)) {
            tenant.awaitReady();
            tenant.ask(Request.run(warmupMillis));
            // The fill runs past both ends of perf's window, so the window counts the fill throughout.
            Request run = Request.run(windowMillis + 500);
            tenant.send(run);
            String output = perf(perf, events, windowMillis);
            tenant.answer(run);
            Reading reading = parse(output, events, windowMillis / 1000.0, "perf stat -a", kernel);
            return say(progress, reading);
        } catch (IOException | RuntimeException e) {
            return say(progress, new Reading(null, "no memory counters: " + oneLine(e.getMessage())));
        }
    }

    /** Runs {@code perf stat -a -x,} over both events for {@code millis}; its report (stderr). */
    private static String perf(String perf, Events events, long millis) throws IOException {
        List<String> command = new ArrayList<>(List.of(perf, "stat", "-a", "-x", ",", "-e",
                events.read() + "," + events.write(), "--", "sleep", String.format(Locale.ROOT, "%.3f", millis / 1e3)));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("perf could not be started (" + perf + "): " + oneLine(e.getMessage()), e);
        }
        try {
            if (!process.waitFor(millis + 30_000, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("perf stat did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while perf stat ran", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("perf stat failed (exit " + process.exitValue() + "): " + firstLine(output));
        }
        return output;
    }

    /**
     * The counts in {@code perf stat -x,} output: each line {@code value,unit,event,...}, summed over lines of the same
     * event (one per memory controller where perf does not merge them). A value in MiB (the uncore_imc events' sysfs
     * scale) or MB is converted to bytes; a bare count is of 64-byte lines (one CAS command each).
     */
    static Reading parse(String output, Events events, double seconds, String tool, String kernel) {
        double read = 0;
        double write = 0;
        boolean sawRead = false;
        boolean sawWrite = false;
        for (String line : output.lines().toList()) {
            String[] fields = line.split(",", -1);
            if (fields.length < 3) {
                continue;
            }
            String event = fields[2].strip();
            boolean isRead = matches(event, events.read());
            boolean isWrite = matches(event, events.write());
            if (!isRead && !isWrite) {
                continue;
            }
            String value = fields[0].strip();
            if (value.startsWith("<")) {
                return new Reading(null, "no memory counters: perf stat says " + value + " for " + event);
            }
            double bytes;
            try {
                bytes = Double.parseDouble(value) * unitBytes(fields[1].strip());
            } catch (NumberFormatException e) {
                return new Reading(null, "no memory counters: perf stat printed " + value + " for " + event);
            }
            if (Double.isNaN(bytes)) {
                return new Reading(null, "no memory counters: perf stat counted " + event + " in " + fields[1].strip()
                        + ", a unit membound does not read");
            }
            if (isRead) {
                read += bytes;
                sawRead = true;
            } else {
                write += bytes;
                sawWrite = true;
            }
        }
        if (!sawRead || !sawWrite) {
            return new Reading(null, "no memory counters: perf stat printed no " + (sawRead ? events.write()
                    : events.read()) + " count (" + firstLine(output) + ")");
        }
        if (write <= 0) {
            return new Reading(null, "no memory counters: the controller counted no writes while Fill ran");
        }
        return new Reading(new WriteAllocation.MemoryCounters(tool, List.of(events.read(), events.write()), read,
                write, seconds, kernel), null);
    }

    /** perf prints the event as given, or per PMU instance ({@code uncore_imc_0/cas_count_read/}). */
    private static boolean matches(String printed, String event) {
        String name = event.substring(event.indexOf('/') + 1).replace("/", "");
        String pmu = event.substring(0, event.indexOf('/'));
        return printed.equals(event) || printed.startsWith(pmu) && printed.contains("/" + name + "/");
    }

    private static double unitBytes(String unit) {
        return switch (unit) {
            case "MiB" -> 1024.0 * 1024.0;
            case "MB" -> 1e6;
            case "" -> 64;
            default -> Double.NaN;
        };
    }

    private static Reading say(PrintWriter progress, Reading reading) {
        if (reading.counters() != null) {
            WriteAllocation.MemoryCounters c = reading.counters();
            progress.printf(Locale.ROOT, "read %s, wrote %s%n", Units.formatBytes((long) c.readBytes()),
                    Units.formatBytes((long) c.writeBytes()));
        } else {
            progress.println(reading.note());
        }
        progress.flush();
        return reading;
    }

    private static String firstLine(String text) {
        return text == null || text.isBlank() ? "nothing printed" : text.strip().lines().findFirst().orElse("").strip();
    }

    private static String oneLine(String message) {
        return message == null ? "unknown error" : firstLine(message);
    }
}
