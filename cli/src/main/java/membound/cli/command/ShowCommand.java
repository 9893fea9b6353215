package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import membound.calibrator.compare.Figure;
import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.cli.options.ProfilesDirOption;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Efficiency;
import membound.profile.Host;
import membound.profile.LatencyEntry;
import membound.profile.LevelCeiling;
import membound.profile.Link;
import membound.profile.Nominal;
import membound.profile.OperationEntry;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Provenance;
import membound.profile.Quality;
import membound.profile.ScalingCurve;
import membound.profile.TenantEntry;
import membound.vocabulary.units.Units;

/** {@code membound show PROFILE}: a profile for people, or (with {@code --format json}) the profile itself. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Shows a hardware profile: host, nominal figures, ceilings per level, compute, latency, "
                + "devices, links and quality flags.",
                "PROFILE is a file, 'latest' or 'latest:<host>' (newest in the profiles directory)."})
public final class ShowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PROFILE", description = "a profile file, latest or latest:<host>")
    String profile;

    @Mixin
    FormatOption format;

    @Mixin
    ProfilesDirOption profilesDir;

    @Override
    public Integer call() {
        OutputFormat output = format.value();
        CommandSupport.Named named = CommandSupport.read(profilesDir.store(), profile);
        PrintWriter out = spec.commandLine().getOut();
        if (output == OutputFormat.JSON) {
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            root.put("file", named.path().toString());
            root.set("profile", ProfileJson.toTree(named.profile()));
            out.print(ProfileJson.toJson(root));
        } else {
            out.print(text(named.path(), named.profile()));
        }
        out.flush();
        return 0;
    }

    static String text(Path file, Profile p) {
        StringBuilder s = new StringBuilder();
        Host h = p.host();
        line(s, "profile", file.toString());
        List<String> cpu = new ArrayList<>();
        if (h.cpu() == null) {
            cpu.add("no host described (the figures are another estimator's hardware file's)");
        } else {
            cpu.add(h.cpu().architecture());
            cpu.add(h.cpu().logicalCpus() + " logical CPUs");
            if (!h.cpu().coreTypes().isEmpty()) {
                cpu.add(String.join(" + ", h.cpu().coreTypes().stream().map(t -> t.count() + "x " + t.name())
                        .toList()));
            }
        }
        if (h.memoryBytes() != null) {
            cpu.add(Units.formatBytes(h.memoryBytes()) + " memory");
        }
        if (h.numaNodes() != null) {
            cpu.add(h.numaNodes() + " NUMA node" + (h.numaNodes() == 1 ? "" : "s"));
        }
        line(s, "host", h.hostname() + ": " + String.join(", ", cpu));
        List<String> system = new ArrayList<>();
        if (h.cpu() != null && (h.cpu().vendor() != null || h.cpu().model() != null)) {
            system.add(((h.cpu().vendor() != null ? h.cpu().vendor() + " " : "")
                    + (h.cpu().model() != null ? h.cpu().model() : "")).strip());
        }
        if (h.os() != null) {
            system.add(h.os());
        }
        if (h.jdk() != null) {
            system.add("JDK " + h.jdk());
        }
        if (h.vectorBitWidth() != null) {
            system.add(h.vectorBitWidth() + "-bit vectors");
        }
        if (!system.isEmpty()) {
            line(s, "", String.join(", ", system));
        }
        line(s, "platform", h.platform() == null ? "not recognised"
                : h.platform().name() + " (" + h.platform().id() + "; " + String.join("; ", h.platform().evidence()) + ")");
        for (Host.Cache c : h.caches()) {
            line(s, c == h.caches().get(0) ? "caches" : "", "L" + c.level() + " " + c.type() + " "
                    + Units.formatBytes(c.sizeBytes()) + " x" + c.instances() + ", shared by " + c.sharedCpus()
                    + " CPU" + (c.sharedCpus() == 1 ? "" : "s") + (c.coreType() != null ? " (" + c.coreType() + ")" : "")
                    + " [" + c.source() + "]");
        }
        var prov = p.provenance();
        line(s, "created", prov.createdUtc() + " by membound " + prov.memboundVersion()
                + (prov.jmhVersion() != null ? ", JMH " + prov.jmhVersion() : ""));
        if (!prov.settings().isEmpty()) {
            line(s, "settings", String.join(", ", prov.settings().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).toList()));
        }
        line(s, "command", prov.commandLine());
        if (prov.rawResultFile() != null) {
            line(s, "raw", prov.rawResultFile());
        }
        for (var d : prov.derivedFrom()) {
            line(s, "from", d.file() + " (" + d.createdUtc() + ")");
        }

        s.append('\n');
        Nominal n = p.nominal();
        line(s, "nominal", n.platformName() != null ? n.platformName() + (n.platformId() != null ? " ("
                + n.platformId() + ")" : "") : "no platform");
        for (Nominal.MemoryBandwidth m : n.memoryBandwidth()) {
            line(s, "", "memory of " + String.join(", ", m.deviceIds()) + ": " + (m.state() == Nominal.State.KNOWN
                    ? Units.formatBandwidth(m.bytesPerSecond()) + " [" + source(m.provenance()) + "]"
                    : "unknown (" + m.reason() + ")"));
        }
        for (Nominal.Compute c : n.compute()) {
            line(s, "", c.deviceId() + " " + c.precision() + (c.sparse() ? " sparse" : " dense") + ": "
                    + (c.state() == Nominal.State.KNOWN ? Units.formatFlops(c.flopsPerSecond()) + " ["
                    + source(c.provenance()) + "]" : "unknown (" + c.reason() + ")"));
        }

        for (Device d : p.devices()) {
            s.append('\n');
            StringBuilder title = new StringBuilder(d.id() + " (" + d.kind() + "): " + d.name());
            if (d.memory() != null && d.memory().capacityBytes() != null) {
                title.append(", ").append(Units.formatBytes(d.memory().capacityBytes()));
                if (d.memory().technology() != null) {
                    title.append(' ').append(d.memory().technology());
                }
            }
            if (!d.unifiedMemoryWith().isEmpty()) {
                title.append(", memory shared with ").append(String.join(", ", d.unifiedMemoryWith()));
            }
            line(s, "device", title.toString());
            List<LevelCeiling> measuredLevels = d.levels().stream().filter(c -> !c.standsIn()).toList();
            for (LevelCeiling c : measuredLevels) {
                String spread = d.bandwidthEntry(c.bandwidthId() == null ? "" : c.bandwidthId())
                        .map(b -> spread(c.inHardwareBytes() ? b.hardwareBytesPerSecond() : b.streamBytesPerSecond(),
                                Figure.BYTES_PER_SECOND)).orElse("");
                String efficiency = p.efficiency().bandwidth().stream()
                        .filter(e -> e.deviceId().equals(d.id()) && e.access() == c.access()
                                && c.level() == membound.vocabulary.MemoryLevel.DRAM)
                        .map(e -> String.format(Locale.ROOT, ", %.0f%% of nominal", e.ratio() * 100))
                        .findFirst().orElse("");
                line(s, c == measuredLevels.get(0) ? "  ceilings" : "", String.format(Locale.ROOT, "%-4s %-6s %12s %s%s%s",
                        c.level(), c.access(), Units.formatBandwidth(c.bytesPerSecond()), c.statistic(), spread,
                        efficiency) + " [" + source(c.provenance()) + "]");
            }
            if (d.writeAllocation() != null) {
                for (String text : writeAllocation(d.writeAllocation())) {
                    line(s, text.startsWith("allocate?") ? "  stores" : "", text);
                }
            }
            for (ComputeEntry c : d.compute()) {
                line(s, c == d.compute().get(0) ? "  compute" : "", c.kind() + " " + c.precision()
                        + (c.threads() != null ? ", " + c.threads() + " threads" : "")
                        + (c.matrixSize() != null ? ", n=" + c.matrixSize() : "")
                        + (c.shape() != null ? ", " + c.shape() : "") + ": "
                        + Units.formatFlops(c.flopsPerSecond().typical()) + spread(c.flopsPerSecond(),
                        Figure.FLOPS_PER_SECOND) + " [" + source(c.provenance()) + "]");
            }
            for (OperationEntry o : d.operations()) {
                line(s, o == d.operations().get(0) ? "  elementwise" : "", String.format(Locale.ROOT,
                        "%s on rows of %d%s: %.2f G elements/s", o.operation(), o.rowLength(),
                        o.threads() != null ? ", " + o.threads() + " threads" : "", o.elementsPerSecond().typical() / 1e9)
                        + " [" + source(o.provenance()) + "]");
            }
            for (LatencyEntry l : d.latency()) {
                line(s, l == d.latency().get(0) ? "  latency" : "", String.format(Locale.ROOT,
                        "%-4s %10s %s: p50 %.1f ns, p90 %.1f, p99 %.1f, mean %.1f", l.level(),
                        Units.formatBytes(l.workingSetBytes()), l.pattern(), l.nanosPerLoad().p50(),
                        l.nanosPerLoad().p90(), l.nanosPerLoad().p99(), l.nanosPerLoad().mean()));
            }
            for (ScalingCurve c : d.threadScaling()) {
                line(s, c == d.threadScaling().get(0) ? "  scaling" : "", c.kernel() + " " + c.level() + ": "
                        + String.join(", ", c.points().stream().map(pt -> pt.threads() + " threads "
                        + Units.formatBandwidth(pt.bytesPerSecond())).toList()));
            }
            // Core types (and clusters) measured apart: each kernel and level with every placement's median.
            List<String> placed = CalibrateCommand.byPlacement(d).lines().skip(1).map(String::strip).toList();
            for (int i = 0; i < placed.size(); i++) {
                line(s, i == 0 ? "  placement" : "", placed.get(i));
            }
            for (TenantEntry t : d.tenants()) {
                line(s, t == d.tenants().get(0) ? "  tenants" : "", t.tenants() + " x " + t.kernel() + " " + t.level()
                        + ": " + Units.formatBandwidth(t.perTenantBytesPerSecond().typical()) + " each, "
                        + Units.formatBandwidth(t.totalBytesPerSecond().typical()) + " together");
            }
            if (!d.bandwidth().isEmpty()) {
                line(s, "  bandwidth", d.bandwidth().size() + " entr" + (d.bandwidth().size() == 1 ? "y" : "ies")
                        + " (" + String.join(", ", d.bandwidth().stream().map(BandwidthEntry::id).limit(6).toList())
                        + (d.bandwidth().size() > 6 ? ", ..." : "") + "); --format json lists them");
            }
            for (Efficiency.ComputeRatio r : p.efficiency().compute()) {
                if (r.deviceId().equals(d.id())) {
                    line(s, "  efficiency", String.format(Locale.ROOT, "%s %s: %.0f%% of the nominal dense peak",
                            r.kind(), r.precision(), r.ratio() * 100));
                }
            }
        }

        if (!p.links().isEmpty()) {
            s.append('\n');
            for (Link l : p.links()) {
                line(s, l == p.links().get(0) ? "links" : "", l.id() + ": " + l.from() + " -> " + l.to() + " (" + l.kind()
                        + ")" + (l.bandwidthBytesPerSecond() != null ? ", " + Units.formatBandwidth(
                        l.bandwidthBytesPerSecond().typical()) + spread(l.bandwidthBytesPerSecond(),
                        Figure.BYTES_PER_SECOND) : "") + (l.latencyNanos() != null ? String.format(Locale.ROOT,
                        ", latency %.0f ns", l.latencyNanos()) : "") + ", " + l.measurements().size()
                        + " measurements" + (l.provenance() != null ? " [" + source(l.provenance()) + "]" : ""));
            }
        }
        s.append('\n');
        if (p.quality().flags().isEmpty()) {
            line(s, "flags", "none");
        }
        for (Quality.Flag f : p.quality().flags()) {
            line(s, f == p.quality().flags().get(0) ? "flags" : "", f.code() + ": " + f.message()
                    + (f.subject() != null ? " (" + f.subject() + ")" : ""));
        }
        return s.toString();
    }

    /**
     * Whether a CPU's stores allocate, in lines: the answer with what the hardware bytes count and the evidence, the
     * entries it came from, the counters (or why none).
     */
    static List<String> writeAllocation(membound.profile.WriteAllocation w) {
        List<String> lines = new ArrayList<>();
        lines.add("allocate? " + w.describe());
        if (!w.bandwidthIds().isEmpty()) {
            lines.add("from " + String.join(", ", w.bandwidthIds()));
        }
        if (w.counters() != null) {
            var c = w.counters();
            lines.add(String.format(Locale.ROOT, "counters: %s -e %s over %.1f s of %s: read %s, wrote %s (%.2f)",
                    c.tool(), String.join(",", c.events()), c.seconds(), c.kernel(),
                    Units.formatBytes((long) c.readBytes()), Units.formatBytes((long) c.writeBytes()), c.readOverWrite()));
        }
        if (w.countersNote() != null) {
            lines.add("counters: " + w.countersNote());
        }
        return lines;
    }

    static String spread(Distribution d, String unit) {
        Double low = d.low();
        Double high = d.high();
        if (low == null || high == null) {
            return ", no spread (" + d.samples() + " sample" + (d.samples() == 1 ? "" : "s") + ")";
        }
        String cv = d.coefficientOfVariation() == null ? "" : String.format(Locale.ROOT, ", CV %.1f%%",
                d.coefficientOfVariation() * 100);
        return ", " + (d.p5() != null ? "p5-p95 " : "worst-best ") + Figure.format(unit, low) + " - "
                + Figure.format(unit, high) + cv + ", " + d.samples() + " samples";
    }

    static String source(Provenance p) {
        return p == null ? "?" : p.kind() + ": " + p.source();
    }

    private static void line(StringBuilder s, String label, String text) {
        s.append(String.format(Locale.ROOT, "%-12s %s", label, text).stripTrailing()).append('\n');
    }
}
