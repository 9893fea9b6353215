package membound.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import membound.calibrator.run.HostMapping;
import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.DeviceSpec;
import membound.hardware.catalog.Figure;
import membound.hardware.catalog.LinkSpec;
import membound.hardware.catalog.PlatformSpec;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.HostReport;
import membound.profile.ProfileJson;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Launcher;
import membound.vocabulary.units.Units;

/**
 * {@code membound hardware}: what membound detects on this machine and what the datasheet catalog says,
 * every figure with its source. Nothing is measured.
 */
@Command(name = "hardware", mixinStandardHelpOptions = true,
        description = {"Shows the detected host (CPU, core types, caches, memory, platform) and the datasheet "
                + "figures of its platform, each with its source; or a catalog entry (--platform NAME), or the "
                + "whole catalog (--list). Nothing is measured."})
public final class HardwareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--platform", paramLabel = "NAME", description = "show this catalog entry, e.g. dgx-spark or gh200")
    String platform;

    @Option(names = "--list", description = "list every catalog entry with its training device's memory and memory bandwidth")
    boolean list;

    /** A catalog id given without --platform: refused with the command that shows it, instead of picocli's bare miss. */
    @Parameters(arity = "0..1", paramLabel = "NAME", hidden = true)
    String positional;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() throws Exception {
        OutputFormat output = format.value();
        Catalog catalog = Catalog.builtIn();
        if (positional != null) {
            String suggestion = catalog.find(positional).map(PlatformSpec::id)
                    .orElse(catalog.closeMatches(positional).stream().findFirst().orElse(null));
            throw new BadInputException("platform must be given with --platform: hardware " + positional + " ("
                    + (suggestion != null ? "did you mean " + Launcher.command("hardware --platform " + suggestion) + "?"
                    : Launcher.command("hardware --list") + " lists the catalog") + ")");
        }
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> json = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder();
        if (list) {
            List<Map<String, Object>> entries = new ArrayList<>();
            for (PlatformSpec entry : catalog.all()) {
                entries.add(platformJson(entry));
            }
            text.append(listing(catalog.all()));
            json.put("catalog", entries);
        } else {
            Optional<PlatformSpec> entry;
            if (platform != null) {
                entry = Optional.of(catalog.require(platform));
            } else {
                Host host = HostDetector.detect();
                json.put("host", HostMapping.toProfile(host));
                HostReport.lines(host).forEach(line -> text.append(line).append('\n'));
                entry = catalog.match(host);
                if (entry.isEmpty()) {
                    text.append("\nplatform: not in the catalog: nominal figures are unknown here; give the "
                            + "datasheet's with " + Launcher.command("calibrate --nominal-bandwidth") + ", or --platform NAME ("
                            + Launcher.command("hardware --list") + ")\n");
                }
            }
            entry.ifPresent(spec -> {
                json.put("platform", platformJson(spec));
                text.append('\n').append(describe(spec));
            });
        }
        if (output == OutputFormat.JSON) {
            out.print(ProfileJson.toJson(json));
        } else {
            out.print(text);
        }
        out.flush();
        return 0;
    }

    /**
     * The catalog as a table with a header: each entry's training device (its GPU, else its CPU) with that device's
     * memory and memory bandwidth (an H100's HBM3, a GH200's HBM3e, a Spark's unified LPDDR5x), and the host CPU's
     * memory bandwidth where it is a memory of its own. Columns are as wide as their longest cell.
     */
    static String listing(List<PlatformSpec> entries) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"id", "name", "device", "device memory", "device memory bandwidth",
                "host memory bandwidth"});
        for (PlatformSpec entry : entries) {
            DeviceSpec trainer = entry.gpu().orElseGet(() -> entry.cpu().orElse(entry.devices().get(0)));
            String host = entry.unifiedMemory() || entry.gpu().isEmpty() ? "(same memory)"
                    : entry.nominalHostMemoryBandwidth().map(f -> Units.formatBandwidth(f.value())).orElse("unknown");
            rows.add(new String[] {entry.id(), entry.name(), trainer.id(),
                    Units.formatBytes((long) trainer.memoryCapacityBytes().value()),
                    Units.formatBandwidth(trainer.memoryBandwidthBytesPerSecond().value()), host});
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder s = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(String.format(Locale.ROOT, "%-" + widths[i] + "s", row[i])).append(i + 1 < row.length ? "  " : "");
            }
            s.append(line.toString().stripTrailing()).append('\n');
        }
        s.append("Every figure is a datasheet's, with its source: ").append(Launcher.command("hardware --platform ID")).append('\n');
        return s.toString();
    }

    static String describe(PlatformSpec spec) {
        StringBuilder s = new StringBuilder();
        s.append(spec.name()).append(" (").append(spec.id()).append(")\n");
        for (DeviceSpec device : spec.devices()) {
            s.append("  ").append(device.id()).append(": ").append(device.name())
                    .append(device.unifiedMemory() ? ", memory unified with the other devices" : "").append('\n');
            line(s, "memory", device.memoryCapacityBytes(), Units.formatBytes((long) device.memoryCapacityBytes().value()));
            line(s, "memory bandwidth", device.memoryBandwidthBytesPerSecond(),
                    Units.formatBandwidth(device.memoryBandwidthBytesPerSecond().value()));
            device.densePeakFlopsPerSecond().forEach((precision, figure) -> line(s,
                    precision.name().toLowerCase(Locale.ROOT) + " dense peak", figure, Units.formatFlops(figure.value())));
            device.sparsePeakFlopsPerSecond().forEach((precision, figure) -> line(s,
                    precision.name().toLowerCase(Locale.ROOT) + " 2:4 sparse peak", figure, Units.formatFlops(figure.value())));
            device.notes().forEach(note -> s.append("    note: ").append(note).append('\n'));
        }
        for (LinkSpec link : spec.links()) {
            line(s, "link " + link.id() + " (" + link.kind().name().toLowerCase(Locale.ROOT) + ", " + link.from()
                    + " to " + link.to() + ")", link.bytesPerSecondPerDirection(),
                    Units.formatBandwidth(link.bytesPerSecondPerDirection().value()) + " per direction");
        }
        return s.toString();
    }

    private static void line(StringBuilder s, String what, Figure figure, String value) {
        if (figure != null) {
            s.append(String.format(Locale.ROOT, "    %-24s %-18s %s%n", what, value, figure.source()));
        }
    }

    private static Map<String, Object> platformJson(PlatformSpec spec) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", spec.id());
        json.put("name", spec.name());
        json.put("aliases", spec.aliases());
        json.put("devices", spec.devices());
        json.put("links", spec.links());
        return json;
    }
}
