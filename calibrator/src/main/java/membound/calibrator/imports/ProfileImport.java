package membound.calibrator.imports;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import membound.calibrator.ceiling.MemoryCeilingRule;
import membound.profile.BandwidthEntry;
import membound.profile.Device;
import membound.profile.Host;
import membound.profile.LevelCeiling;
import membound.profile.Link;
import membound.profile.Profile;
import membound.profile.Provenance;
import membound.profile.Quality;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Implementation;
import membound.vocabulary.LinkKind;
import membound.vocabulary.MemoryLevel;

/**
 * Puts what a tool printed into a profile, making a new profile; the input is never changed.
 *
 * <p>Rules, so that an import never hides a measurement:
 * <ul>
 *   <li>Bandwidth figures go to the device {@code deviceId} (created if the profile lacks it) at level
 *       DRAM, with new ids; existing entries stay.</li>
 *   <li>A figure fills the device's DRAM ceiling for its access pattern only where the device has none:
 *       an import never replaces a ceiling that is already there.</li>
 *   <li>Link figures go to the link {@code linkId} (created if missing); their measurements are added
 *       and the link's bandwidth becomes the imported one.</li>
 *   <li>Flags: {@code working-set-too-small} (a CPU figure whose working set is under 4× the last-level
 *       cache), {@code fewer-threads-than-cores}, {@code no-spread} (one figure, so {@code compare}
 *       cannot call a difference a change).</li>
 * </ul>
 */
public final class ProfileImport {

    /** STREAM's rule: each array at least 4× the last-level cache for a DRAM figure. */
    public static final int DRAM_WORKING_SET_FACTOR = 4;

    private ProfileImport() {
    }

    /**
     * Where the figures go.
     *
     * @param deviceId          the device for bandwidth figures (and the GPU end of a CPU–GPU link)
     * @param deviceName        the name of a device this import creates, if given
     * @param unifiedMemoryWith devices that share the memory of a device this import creates
     * @param linkId            the link for link figures
     * @param linkKind          the kind of a link this import creates, if given
     * @param linkFrom          the device a link starts from, if given
     * @param linkTo            the other end of a link, if given
     */
    public record Target(String deviceId, String deviceName, List<String> unifiedMemoryWith, String linkId,
                         LinkKind linkKind, String linkFrom, String linkTo) {
        public Target {
            unifiedMemoryWith = unifiedMemoryWith == null ? List.of() : List.copyOf(unifiedMemoryWith);
        }
    }

    /**
     * The new profile and what happened.
     *
     * @param profile the new profile
     * @param added   one line per figure added
     * @param flags   quality flags added
     * @param skipped  parts of the tool output not imported, and why
     * @param inferred what the import inferred (rank count, link kind) and from what
     * @param ceilings what the model's DRAM ceilings are for each imported pattern after the import: the imported
     *                 figure, or the profile's own one it kept, with the two compared
     */
    public record Result(Profile profile, List<String> added, List<Quality.Flag> flags, List<String> skipped,
                         List<String> inferred, List<String> ceilings) {
    }

    public static Result apply(Profile input, ImportedFigures figures, ImportFormat format, Target target,
                               RunContext context) {
        Profile profile = input;
        List<String> added = new ArrayList<>();
        List<Quality.Flag> flags = new ArrayList<>();
        List<String> inferred = new ArrayList<>(figures.inferred());
        String deviceId = target.deviceId() != null ? target.deviceId() : format.defaultDevice();
        List<String> ceilingNotes = new ArrayList<>();

        if (!figures.bandwidth().isEmpty()) {
            Device device = deviceFor(profile, deviceId, figures, target, context);
            List<BandwidthEntry> entries = new ArrayList<>(device.bandwidth());
            // The measured ceilings: the stand-ins are completed again once the imported figures are in.
            List<LevelCeiling> ceilings = new ArrayList<>(device.levels().stream().filter(c -> !c.standsIn()).toList());
            Set<String> ids = new HashSet<>();
            entries.forEach(e -> ids.add(e.id()));
            Set<String> importedIds = new HashSet<>();
            for (ImportedBandwidth figure : figures.bandwidth()) {
                checkFits(profile.host(), device, figure, context.file());
                String id = unique(ids, deviceId + "-" + slug(figures.tool()) + "-" + figure.kernel() + "-"
                        + slug(figure.elementType()) + (figure.threads() != null ? "-t" + figure.threads() : ""));
                BandwidthEntry entry = new BandwidthEntry(id, figure.kernel(), figure.access(), figure.standsIn(),
                        figure.elementType(), Implementation.IMPORTED, figure.threads(), null, figure.workingSetBytes(),
                        MemoryLevel.DRAM, figure.streamBytesPerSecond(), null, figure.provenance());
                entries.add(entry);
                added.add(deviceId + " bandwidth " + id);
                if (figure.access() != null) {
                    takeCeiling(ceilings, entries, importedIds, figure.access(), entry, deviceId, added);
                }
                importedIds.add(id);
                flags.addAll(flagsFor(profile.host(), device, entry, figure));
            }
            Device updated = device.withBandwidth(entries).withLevels(MemoryCeilingRule.complete(ceilings));
            profile = profile.withDevice(updated);
            ceilingNotes.addAll(ceilingNotes(updated, entries, importedIds));
        }

        if (!figures.linkMeasurements().isEmpty() || figures.linkBandwidth() != null) {
            boolean hostToDevice = format == ImportFormat.NVBANDWIDTH;
            String linkId = target.linkId() != null ? target.linkId() : hostToDevice ? "cpu-" + deviceId : "network";
            String from = target.linkFrom() != null ? target.linkFrom() : hostToDevice ? "cpu" : deviceId;
            String to = target.linkTo() != null ? target.linkTo() : hostToDevice ? deviceId : "peer";
            if (target.linkFrom() != null && profile.device(from).isEmpty() && !from.equals(deviceId)) {
                // A link from a device nobody measured would add that device empty: a typo, not a machine.
                throw new BadInputException("from must be a device of the profile or this import's --device ("
                        + deviceIds(profile) + "): from=" + from);
            }
            if (profile.device(from).isEmpty()) {
                profile = profile.withDevice(deviceFor(profile, from, figures, target, context));
            }
            if (hostToDevice && profile.device(to).isEmpty()) {
                profile = profile.withDevice(deviceFor(profile, to, figures, target, context));
            }
            Link existing = profile.link(linkId).orElse(null);
            LinkKind kind = linkKind(profile, existing, figures, format, target, linkId, inferred);
            if (kind == LinkKind.UNKNOWN) {
                flags.add(new Quality.Flag("link-kind-unknown", "link " + linkId + ": " + unknownBecause(figures)
                        + "; next: import it again with --link-kind c2c|pcie|nvlink|network", null, linkId));
            }
            List<Link.Measurement> measurements = new ArrayList<>(existing == null ? List.of() : existing.measurements());
            measurements.addAll(figures.linkMeasurements());
            Provenance provenance = Provenance.imported(figures.tool(), figures.toolVersion(), null, context.file(),
                    figures.settings());
            Double latency = figures.linkLatencyNanos() != null ? figures.linkLatencyNanos()
                    : existing == null ? null : existing.latencyNanos();
            Link link = new Link(linkId, existing != null ? existing.from() : from, existing != null ? existing.to() : to,
                    kind, figures.linkBandwidth() != null ? figures.linkBandwidth()
                    : existing == null ? null : existing.bandwidthBytesPerSecond(), latency, measurements, provenance);
            profile = profile.withLink(link);
            added.add("link " + linkId + ": " + figures.linkMeasurements().size() + " measurements"
                    + (figures.linkBandwidth() != null ? ", bandwidth" : "") + (figures.linkLatencyNanos() != null
                    ? ", latency" : ""));
            if (figures.cutOff()) {
                flags.add(new Quality.Flag("partial-output", "link " + linkId + " is from a " + figures.tool()
                        + " output cut off inside its table: its largest size is " + figures.largestMessageBytes()
                        + " bytes, and its bandwidth that of messages up to that size (imported with --partial)",
                        null, linkId));
            }
            if (link.bandwidthBytesPerSecond() != null && link.bandwidthBytesPerSecond().high() == null) {
                flags.add(new Quality.Flag("no-spread", "link " + linkId + " bandwidth is one figure from "
                        + figures.tool() + ": compare cannot call a difference a change", null, linkId));
            }
        }

        Quality quality = profile.quality();
        List<Quality.Flag> newFlags = new ArrayList<>();
        for (Quality.Flag flag : flags) {
            if (!quality.flags().contains(flag)) {
                quality = quality.with(flag);
                newFlags.add(flag);
            }
        }
        profile = profile.withQuality(quality)
                .withProvenance(input.provenance().derived(context.memboundVersion(), context.commandLine(),
                        context.now(), context.inputProfile()))
                .withDerivedEfficiency();
        return new Result(profile, added, newFlags, figures.skipped(), inferred, ceilingNotes);
    }

    /**
     * For each DRAM pattern an imported figure stands for, which figure the model's ceiling is now, in one line: the
     * imported one ("predict uses it"), or the profile's own one kept, with the imported figure as a multiple of it,
     * so that a user sees what predict will read and how far the other tool's figure is from it.
     */
    static List<String> ceilingNotes(Device device, List<BandwidthEntry> entries, Set<String> importedIds) {
        List<String> notes = new ArrayList<>();
        for (AccessPattern pattern : AccessPattern.values()) {
            List<BandwidthEntry> imported = entries.stream().filter(e -> importedIds.contains(e.id())
                    && e.pattern() == pattern && e.level() == MemoryLevel.DRAM).toList();
            if (imported.isEmpty()) {
                continue;
            }
            LevelCeiling ceiling = device.ceiling(MemoryLevel.DRAM, pattern).orElse(null);
            if (ceiling == null) {
                continue;
            }
            String now = String.format(Locale.ROOT, "%s DRAM %s ceiling: %s (%s of entry %s)", device.id(), pattern,
                    membound.vocabulary.units.Units.formatBandwidth(ceiling.bytesPerSecond()), ceiling.statistic().label(),
                    ceiling.bandwidthId());
            if (importedIds.contains(ceiling.bandwidthId())) {
                notes.add(now + ", imported: predict uses it");
                continue;
            }
            StringBuilder line = new StringBuilder(now + ", kept: an import never replaces a ceiling the profile has;");
            for (BandwidthEntry e : imported) {
                double figure = e.streamBytesPerSecond().typical();
                line.append(String.format(Locale.ROOT, " %s %s %s = %.2fx it;", e.id(),
                        e.streamBytesPerSecond().typicalStatistic().label(),
                        membound.vocabulary.units.Units.formatBandwidth(figure), figure / ceiling.bytesPerSecond()));
            }
            line.setLength(line.length() - 1);
            notes.add(line.append(" (kept beside it as a bandwidth entry; show --format json lists it)").toString());
        }
        return notes;
    }

    /**
     * An imported DRAM figure becomes its pattern's ceiling by the calibrator's rule: where the device has none of
     * that pattern, or where the one there came from this same import by a kernel that only stands in for the
     * pattern (BabelStream's Mul before its Copy). A ceiling the device already had is never replaced. A copy
     * ceiling brings the in-place update ceiling beside it where its entry counted hardware bytes.
     */
    private static void takeCeiling(List<LevelCeiling> ceilings, List<BandwidthEntry> entries, Set<String> importedIds,
                                    AccessPattern pattern, BandwidthEntry entry, String deviceId, List<String> added) {
        LevelCeiling current = ceilings.stream().filter(c -> c.level() == MemoryLevel.DRAM && c.access() == pattern)
                .findFirst().orElse(null);
        if (current != null) {
            BandwidthEntry from = entries.stream().filter(e -> e.id().equals(current.bandwidthId())).findFirst()
                    .orElse(null);
            if (from == null || !importedIds.contains(from.id()) || !MemoryCeilingRule.better(entry, from)) {
                return;
            }
            ceilings.removeIf(c -> c.level() == MemoryLevel.DRAM && (c.access() == pattern
                    || (pattern == AccessPattern.COPY && c.access() == AccessPattern.UPDATE)));
        }
        ceilings.add(LevelCeiling.of(pattern, entry));
        added.add(deviceId + " ceiling DRAM " + pattern + " from " + entry.id());
        if (pattern == AccessPattern.COPY && ceilings.stream()
                .noneMatch(c -> c.level() == MemoryLevel.DRAM && c.access() == AccessPattern.UPDATE)) {
            LevelCeiling.updateOf(entry).ifPresent(update -> {
                ceilings.add(update);
                added.add(deviceId + " ceiling DRAM " + AccessPattern.UPDATE + " from " + entry.id()
                        + " (hardware bytes)");
            });
        }
    }

    /**
     * What the import ran as.
     *
     * @param file            the tool output's file name as given
     * @param inputProfile    the input profile's file name
     * @param commandLine     the command
     * @param memboundVersion the version now running
     * @param now             when
     */
    public record RunContext(String file, String inputProfile, String commandLine, String memboundVersion,
                             Instant now) {
    }

    private static Device deviceFor(Profile profile, String id, ImportedFigures figures, Target target,
                                    RunContext context) {
        Device existing = profile.device(id).orElse(null);
        if (existing != null) {
            return existing;
        }
        for (String other : target.unifiedMemoryWith()) {
            if (profile.device(other).isEmpty()) {
                throw new BadInputException("--unified-memory-with must name a device of the profile: "
                        + "--unified-memory-with=" + other + ", devices=" + deviceIds(profile));
            }
        }
        DeviceKind kind = id.startsWith("gpu") ? DeviceKind.GPU : id.startsWith("cpu") ? DeviceKind.CPU
                : DeviceKind.ACCELERATOR;
        String name = target.deviceName() != null ? target.deviceName()
                : figures.deviceName() != null ? figures.deviceName()
                : id + " (named by no tool output; give --device-name)";
        return Device.of(id, kind, name, null, target.unifiedMemoryWith());
    }

    static String deviceIds(Profile profile) {
        return String.join(",", profile.devices().stream().map(Device::id).toList());
    }

    /** The new link's kind: {@code --link-kind}, else the existing link's, else what the output shows. */
    private static LinkKind linkKind(Profile profile, Link existing, ImportedFigures figures, ImportFormat format,
                                     Target target, String linkId, List<String> inferred) {
        Optional<InferredLinkKind> shown = InferredLinkKind.of(figures, format, profile.host().platform());
        if (target.linkKind() != null) {
            inferred.add("link kind " + target.linkKind() + " from --link-kind" + shown
                    .filter(s -> s.kind() != target.linkKind())
                    .map(s -> " (the output shows " + s.kind() + ": " + s.from() + ")").orElse(""));
            return target.linkKind();
        }
        if (existing != null) {
            inferred.add("link kind " + existing.kind() + " kept from the profile's link " + linkId);
            return existing.kind();
        }
        if (shown.isPresent()) {
            inferred.add("link kind " + shown.get().kind() + " from " + shown.get().from());
            return shown.get().kind();
        }
        inferred.add("link kind unknown: " + unknownBecause(figures));
        return LinkKind.UNKNOWN;
    }

    /** Why an output shows no link kind, for the inferred line and the flag. */
    static String unknownBecause(ImportedFigures figures) {
        return "the output shows no kind (hosts " + figures.hosts().size() + ", rank lines "
                + figures.settings().getOrDefault("rankLines", "none") + ", ranks "
                + figures.settings().getOrDefault("ranks", "unknown")
                + (figures.deviceName() != null ? ", device " + figures.deviceName() : ", no device name")
                + ", no NCCL transport lines)";
    }

    private static void checkFits(Host host, Device device, ImportedBandwidth figure, String file) {
        Long capacity = device.memory() != null && device.memory().capacityBytes() != null
                ? device.memory().capacityBytes() : host.memoryBytes();
        if (figure.workingSetBytes() != null && capacity != null && figure.workingSetBytes() > capacity) {
            throw new BadInputException("imported working set must fit in the device's memory: file=" + file
                    + ", kernel=" + figure.kernel() + ", workingSetBytes=" + figure.workingSetBytes()
                    + ", memoryBytes=" + capacity);
        }
    }

    private static List<Quality.Flag> flagsFor(Host host, Device device, BandwidthEntry entry, ImportedBandwidth figure) {
        List<Quality.Flag> flags = new ArrayList<>();
        if (device.kind() == DeviceKind.CPU && figure.workingSetBytes() != null) {
            host.lastLevelCache().ifPresent(llc -> {
                long needed = DRAM_WORKING_SET_FACTOR * llc.totalBytes();
                if (figure.workingSetBytes() < needed) {
                    flags.add(new Quality.Flag("working-set-too-small", "working set " + figure.workingSetBytes()
                            + " bytes is under " + DRAM_WORKING_SET_FACTOR + "x the last-level cache (" + needed
                            + " bytes): not a DRAM figure", device.id(), entry.id()));
                }
            });
        }
        if (device.kind() == DeviceKind.CPU && figure.threads() != null && host.cpu() != null
                && figure.threads() < host.cpu().logicalCpus()) {
            flags.add(new Quality.Flag("fewer-threads-than-cores", figure.threads() + " threads on "
                    + host.cpu().logicalCpus() + " logical CPUs", device.id(), entry.id()));
        }
        if (figure.streamBytesPerSecond().high() == null) {
            flags.add(new Quality.Flag("no-spread", "one figure from " + figure.provenance().source()
                    + ": compare cannot call a difference a change", device.id(), entry.id()));
        }
        return flags;
    }

    private static String unique(Set<String> ids, String base) {
        String id = base;
        for (int n = 2; !ids.add(id); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    static String slug(String text) {
        String s = Objects.requireNonNull(text).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-");
        s = s.replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "x" : s;
    }
}
