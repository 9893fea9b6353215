package membound.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import membound.calibrator.run.CalibrationFailedException;
import membound.calibrator.run.CalibrationLock;
import membound.calibrator.run.CalibrationMode;
import membound.calibrator.run.Calibrator;
import membound.calibrator.run.GpuPolicy;
import membound.calibrator.run.JavaCheck;
import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.cli.options.ProfilesDirOption;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Efficiency;
import membound.profile.LatencyEntry;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Quality;
import membound.vocabulary.units.Units;
import membound.vocabulary.text.Launcher;

/** {@code membound calibrate}: measure this machine and write a profile. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measures this machine's memory bandwidth per level, latency and compute ceilings with the "
                + "JMH suite, prints them against the nominal (datasheet) figures, and writes a profile to "
                + "results/profiles/<host>-<UTC time>.json with JMH's raw results beside it.",
                "Modes: --quick (<= 60 s on 2 cores: DRAM triad, copy and read, triad in L1 and L2, FMA peak), "
                        + "--standard (default, <= 7 min: all kernels, every level, thread scaling, latency, FMA, "
                        + "GEMM, products at their shapes, elementwise operations), --full (standard plus float, working-set sweeps, scalar twins, more "
                        + "iterations)."})
public final class CalibrateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    static final class Mode {
        @Option(names = "--quick", description = "about a minute: the DRAM plateau and a first look at caches")
        boolean quick;
        @Option(names = "--standard", description = "a few minutes: every kernel, level, latency and compute")
        boolean standard;
        @Option(names = "--full", description = "standard plus sweeps, float and scalar twins")
        boolean full;
        @Option(names = "--smoke", description = "seconds: every benchmark at tiny sizes, to check the machinery "
                + "(CI, a new cluster); its figures are not the machine's ceilings")
        boolean smoke;

        CalibrationMode mode() {
            return quick ? CalibrationMode.QUICK : full ? CalibrationMode.FULL : smoke ? CalibrationMode.SMOKE
                    : CalibrationMode.STANDARD;
        }
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Mode mode = new Mode();

    @Option(names = "--platform", paramLabel = "NAME",
            description = "use this catalog entry (e.g. dgx-spark) instead of the detected platform")
    String platform;

    @Option(names = "--nominal-bandwidth", paramLabel = "BW",
            description = "nominal memory bandwidth to compare against, e.g. 273GB/s (overrides the catalog)")
    String nominalBandwidth;

    @Option(names = "--huge-pages", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "ask for transparent huge pages on the benchmarks' heap where the kernel offers them "
                    + "(default: yes; --no-huge-pages measures with the kernel's default pages)")
    boolean hugePages = true;

    @Option(names = "--pin", description = "bind each benchmark thread to its own cpu (taskset); the profile records it")
    boolean pin;

    @Option(names = "--core-types", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "on a host with several core types (a DGX Spark: Cortex-X925 and Cortex-A725), also measure "
                    + "bandwidth on each type on its own (default: yes; ceilings always come from all cpus)")
    boolean coreTypes = true;

    @Option(names = "--tenants", paramLabel = "K",
            description = "also measure how the memory bandwidth divides among 1 ... K tenants: K processes streaming "
                    + "Triad at once, each with its share of the cpus; the curve goes into the profile and "
                    + "predict --tenants uses it")
    int tenants;

    @Option(names = "--gpu", paramLabel = "WHEN", defaultValue = "auto",
            description = "measure the GPU with the GPU suite (CUDA driver, JDK 22+): auto (default: where it can, "
                    + "else one line says why and the profile is flagged gpu-not-measured), required (a GPU that "
                    + "cannot be measured is an error, exit 2), off")
    String gpu = "auto";

    @Option(names = "--jvm", paramLabel = "JAVA",
            description = "the java that runs the benchmark forks (default: the one running membound)")
    String jvm;

    @Option(names = "--wait", description = "when another calibration or a validation is measuring this machine, wait for it to "
            + "finish instead of stopping (two at once would measure each other)")
    boolean waitForLock;

    @Mixin
    ProfilesDirOption profilesDir;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() {
        OutputFormat output = format.value();
        CalibrationMode chosen = (mode == null ? new Mode() : mode).mode();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Calibrator.Request request = Calibrator.Request.builder(chosen, profilesDir.store()).platform(platform)
                .nominalBandwidth(nominalBandwidth).hugePages(hugePages).commandLine(CommandSupport.commandLine(spec))
                .memboundVersion(CommandSupport.version()).pin(pin).coreTypes(coreTypes).jvm(jvm).tenants(tenants)
                .gpu(GpuPolicy.of(gpu)).build();
        // Before anything is measured: the java that will run the forks, the directory the profile goes to, the lock.
        if (jvm != null) {
            JavaCheck.check(jvm);
        }
        request.store().checkWritable();
        PrintWriter progress = output == OutputFormat.JSON ? err : out;
        Calibrator.Outcome outcome;
        try (CalibrationLock lock = CalibrationLock.acquire(CalibrationLock.file(), waitForLock, progress)) {
            // In JSON mode stdout carries only the result, so progress goes to stderr.
            outcome = Calibrator.run(request, progress);
        } catch (CalibrationFailedException e) {
            err.println("membound: " + e.getMessage());
            e.jmhTail().stream().filter(line -> !line.isBlank()).forEach(line -> err.println("  jmh: " + line));
            err.flush();
            return 1;
        }
        if (output == OutputFormat.JSON) {
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            root.put("file", outcome.profileFile().toString());
            root.put("elapsedSeconds", outcome.elapsed().toMillis() / 1000.0);
            root.set("profile", ProfileJson.toTree(outcome.profile()));
            out.print(ProfileJson.toJson(root));
        } else {
            out.print(summary(outcome));
        }
        out.flush();
        return 0;
    }

    /**
     * Where bandwidth was measured on several placements (core types, clusters, all): one line per kernel and
     * level with each placement's median, so the X925, A725 and all-core figures of a DGX Spark sit side by side.
     */
    static String byPlacement(Device cpu) {
        // level, kernel, type -> placement -> its largest team's entry
        java.util.Map<String, java.util.Map<String, BandwidthEntry>> byKey = new java.util.LinkedHashMap<>();
        for (BandwidthEntry entry : cpu.bandwidth()) {
            String key = entry.level().label() + " " + entry.kernel() + " " + entry.elementType();
            String placement = entry.placement() == null ? "all" : entry.placement();
            byKey.computeIfAbsent(key, k -> new java.util.LinkedHashMap<>()).merge(placement, entry,
                    (a, b) -> b.threads() != null && (a.threads() == null || b.threads() > a.threads()) ? b : a);
        }
        StringBuilder s = new StringBuilder();
        byKey.forEach((key, placements) -> {
            if (placements.size() > 1) {
                List<String> figures = new ArrayList<>();
                placements.forEach((placement, entry) -> figures.add(String.format(Locale.ROOT, "%s %s threads %s",
                        placement, entry.threads() == null ? "?" : entry.threads().toString(),
                        Units.formatBandwidth(entry.streamBytesPerSecond().typical()))));
                s.append(String.format(Locale.ROOT, "  %-20s %s%n", key, String.join("   ", figures)));
            }
        });
        return s.length() == 0 ? "" : "by placement (median, STREAM bytes):\n" + s;
    }

    /** The GPU suite's figures: every kernel, element type and working set, then the host-device links. */
    static String gpuTable(Device gpu, Profile profile) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s (%s): STREAM bytes, CUDA-event timed, every "
                + "pass validated%n", gpu.id(), gpu.name()));
        s.append(String.format(Locale.ROOT, "  %-7s %-7s %-6s %10s %14s %22s %7s%n", "kernel", "type", "level",
                "array", "median", "p5 - p95", "CV"));
        for (BandwidthEntry entry : gpu.bandwidth()) {
            var d = entry.streamBytesPerSecond();
            String array = entry.provenance().settings().getOrDefault("gpu.arrayBytes", "");
            s.append(String.format(Locale.ROOT, "  %-7s %-7s %-6s %10s %14s %22s %6.1f%%%n", entry.kernel(),
                    entry.elementType(), entry.level().label(),
                    array.isEmpty() ? "" : Units.formatBytes(Long.parseLong(array)), Units.formatBandwidth(d.typical()),
                    d.p5() == null ? "" : Units.formatBandwidth(d.p5()) + " - " + Units.formatBandwidth(d.p95()),
                    d.coefficientOfVariation() == null ? 0 : 100 * d.coefficientOfVariation()));
        }
        for (membound.profile.ComputeEntry entry : gpu.compute()) {
            var d = entry.flopsPerSecond();
            s.append(String.format(Locale.ROOT, "  %-7s %-7s %-24s %14s %22s %6.1f%%%n", entry.kind().label(),
                    entry.precision().label(), entry.shape() != null ? entry.shape().toString()
                            : entry.matrixSize() != null ? entry.matrixSize() + "^3" : "", Units.formatFlops(d.typical()),
                    d.p5() == null ? "" : Units.formatFlops(d.p5()) + " - " + Units.formatFlops(d.p95()),
                    d.coefficientOfVariation() == null ? 0 : 100 * d.coefficientOfVariation()));
        }
        if (gpu.launch() != null) {
            s.append(String.format(Locale.ROOT, "  launch: + synchronise %.1f us, back to back %.2f us (medians)%n",
                    gpu.launch().launchSyncNanos().p50() / 1e3, gpu.launch().launchIntervalNanos().p50() / 1e3));
        }
        for (membound.profile.Link link : profile.links()) {
            if (link.bandwidthBytesPerSecond() != null && (link.from().equals(gpu.id()) || link.to().equals(gpu.id()))) {
                s.append(String.format(Locale.ROOT, "  link %s (%s, %s to %s, pinned): %s median%n", link.id(),
                        link.kind().label(), link.from(), link.to(),
                        Units.formatBandwidth(link.bandwidthBytesPerSecond().typical())));
            }
        }
        return s.toString();
    }

    /** The measured-against-nominal summary that ends a calibration. */
    static String summary(Calibrator.Outcome outcome) {
        Profile profile = outcome.profile();
        Device cpu = profile.devices().get(0);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%nmeasured in %d s; bandwidth in STREAM bytes (what the code reads and "
                + "writes), GB = 10^9 bytes%n", outcome.elapsed().toSeconds()));
        s.append(String.format(Locale.ROOT, "%-6s %-6s %14s %22s %7s  %s%n", "level", "access", "median", "p5 - p95",
                "CV", "vs nominal"));
        List<String> updates = new ArrayList<>();
        for (LevelCeiling ceiling : cpu.levels()) {
            if (ceiling.standsIn()) {
                continue;
            }
            var entry = cpu.bandwidthEntry(ceiling.bandwidthId()).orElseThrow();
            var d = ceiling.inHardwareBytes() ? entry.hardwareBytesPerSecond() : entry.streamBytesPerSecond();
            // Main memory against its datasheet figure, "unknown" without one; a cache level has no nominal figure.
            boolean update = ceiling.access() == membound.vocabulary.AccessPattern.UPDATE && ceiling.inHardwareBytes();
            String ratio = ceiling.level() != membound.vocabulary.MemoryLevel.DRAM ? "-" : update ? "as copy"
                    : profile.efficiency().bandwidth().stream()
                    .filter(r -> r.deviceId().equals(cpu.id()) && r.access() == ceiling.access())
                    .map(Efficiency.BandwidthRatio::ratio).findFirst()
                    .map(r -> String.format(Locale.ROOT, "%.0f%%", 100 * r)).orElse("unknown");
            if (update) {
                updates.add(ceiling.level().label());
            }
            s.append(String.format(Locale.ROOT, "%-6s %-6s %14s %22s %6.1f%%  %s%n", ceiling.level().label(),
                    ceiling.access().label(), Units.formatBandwidth(ceiling.bytesPerSecond()),
                    d.p5() == null ? "" : Units.formatBandwidth(d.p5()) + " - " + Units.formatBandwidth(d.p95()),
                    d.coefficientOfVariation() == null ? 0 : 100 * d.coefficientOfVariation(), ratio));
        }
        if (!updates.isEmpty()) {
            s.append(String.format(Locale.ROOT, "update (%s): not a kernel of its own: an in-place update (the optimizer "
                    + "step) moves at Copy's rate counted in hardware bytes (x1.5), as its stores read no line first%n",
                    String.join(", ", updates)));
        }
        s.append(byPlacement(cpu));
        String nominal = profile.nominal().memoryBandwidth().stream()
                .filter(m -> m.deviceIds().contains(cpu.id())).findFirst()
                .map(m -> m.bytesPerSecond() != null
                        ? Units.formatBandwidth(m.bytesPerSecond()) + " (" + m.provenance().source() + ")"
                        : "unknown: " + m.reason())
                .orElse("unknown");
        s.append("nominal memory bandwidth: ").append(nominal).append('\n');
        if (!cpu.latency().isEmpty()) {
            s.append("load latency (p50 ns per load):");
            for (LatencyEntry latency : cpu.latency()) {
                s.append(String.format(Locale.ROOT, " %s %.1f", latency.level().label(), latency.nanosPerLoad().p50()));
            }
            s.append('\n');
        }
        if (!cpu.compute().isEmpty()) {
            List<String> compute = new ArrayList<>();
            List<ComputeEntry> products = new ArrayList<>();
            for (ComputeEntry entry : cpu.compute()) {
                if (entry.kind() == ComputeEntry.Kind.PRODUCT) {
                    products.add(entry);
                    continue;
                }
                compute.add(entry.kind().label() + " " + entry.precision().label() + " " + entry.threads() + "t "
                        + Units.formatFlops(entry.flopsPerSecond().typical()));
            }
            s.append("compute (median): ").append(String.join(", ", compute)).append('\n');
            if (!products.isEmpty()) {
                s.append("products (median): ").append(String.join(", ", products.stream().map(e -> e.shape() + " "
                        + Units.formatFlops(e.flopsPerSecond().typical())).toList())).append('\n');
            }
        }
        if (!cpu.operations().isEmpty()) {
            s.append("elementwise (median): ").append(String.join(", ", cpu.operations().stream().map(o -> String.format(
                    Locale.ROOT, "%s %.2f G elements/s", o.operation(), o.elementsPerSecond().typical() / 1e9)).toList()))
                    .append('\n');
        }
        if (!cpu.tenants().isEmpty()) {
            s.append("tenants (Triad, all at once):");
            for (var tenant : cpu.tenants()) {
                s.append(String.format(Locale.ROOT, " %d: %s each, %s in total;", tenant.tenants(),
                        Units.formatBandwidth(tenant.perTenantBytesPerSecond().typical()),
                        Units.formatBandwidth(tenant.totalBytesPerSecond().typical())));
            }
            s.setLength(s.length() - 1);
            s.append('\n');
        }
        profile.devices().stream().filter(d -> d.kind() == membound.vocabulary.DeviceKind.GPU
                && !d.bandwidth().isEmpty()).forEach(gpu -> s.append(gpuTable(gpu, profile)));
        for (Quality.Flag flag : profile.quality().flags()) {
            s.append("flag ").append(flag.code()).append(flag.subject() == null ? "" : " " + flag.subject())
                    .append(": ").append(flag.message()).append('\n');
        }
        if (cpu.writeAllocation() != null) {
            // What the profile's hardware bytes (and the update ceiling) count, and the evidence.
            List<String> lines = ShowCommand.writeAllocation(cpu.writeAllocation());
            s.append("stores ").append(lines.get(0)).append('\n');
            lines.subList(1, lines.size()).forEach(line -> s.append("       ").append(line).append('\n'));
        }
        s.append("profile: ").append(outcome.profileFile()).append('\n');
        if (profile.provenance().rawResultFile() != null) {
            s.append("raw JMH results: ").append(outcome.profileFile().resolveSibling(
                    profile.provenance().rawResultFile())).append('\n');
        }
        s.append("next: ").append(Launcher.command("show ")).append(outcome.profileFile()).append("\n      ")
                .append(Launcher.command("predict --profile "))
                .append(outcome.profileFile()).append(" --model llama-3.1-8b\n");
        String stem = outcome.profileFile().getFileName().toString().replaceFirst("\\.json$", "");
        s.append("charts and a page of this profile: ").append(Launcher.command("report --profile "))
                .append(outcome.profileFile()).append(" --model llama-3.1-8b --out report-").append(stem).append('\n');
        return s.toString();
    }
}
