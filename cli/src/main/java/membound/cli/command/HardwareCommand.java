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

    @Option(names = "--list", description = "list every catalog entry with its memory bandwidth")
    boolean list;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() throws Exception {
        OutputFormat output = format.value();
        Catalog catalog = Catalog.builtIn();
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> json = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder();
        if (list) {
            List<Map<String, Object>> entries = new ArrayList<>();
            for (PlatformSpec entry : catalog.all()) {
                entries.add(platformJson(entry));
                text.append(String.format(Locale.ROOT, "%-18s %-44s %s%n", entry.id(), entry.name(),
                        entry.nominalHostMemoryBandwidth().map(f -> Units.formatBandwidth(f.value())).orElse("")));
            }
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
                    text.append("\nplatform: not in the catalog: nominal figures are unknown here; give them with "
                            + "calibrate --nominal-bandwidth or --platform NAME (membound hardware --list)\n");
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
