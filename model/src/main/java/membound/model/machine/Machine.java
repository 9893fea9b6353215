package membound.model.machine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.units.Units;

/**
 * What the model predicts on: the device that trains ({@link #device}), the host memory behind it
 * that offloading goes to (absent on a CPU-only machine; the same memory on a unified-memory
 * machine), the links to host, peers and network, and, where measured, how the device's bandwidth
 * divides among tenants. Everything the roofline needs and nothing of JSON: the profile and the
 * catalog are turned into this by {@link Machines}.
 */
public record Machine(String id, String name, String source, Device device, Device host, List<Link> links,
                      TenantsCurve tenants, List<String> notes, SharingCurve sharing) {

    /** A machine without a measured sharing curve (every catalog machine; a profile without a unified-memory GPU run). */
    public Machine(String id, String name, String source, Device device, Device host, List<Link> links,
                   TenantsCurve tenants, List<String> notes) {
        this(id, name, source, device, host, links, tenants, notes, null);
    }

    /**
     * {@code --cpu-streams}: {@code threads} CPU threads stream memory while the device trains (data loading,
     * tenants on the CPU). On a unified memory the device then gets the measured sharing curve's share of its
     * bandwidth on both bases; 0 leaves the machine as it is.
     *
     * @throws membound.vocabulary.BadInputException where the machine has no measured sharing curve
     */
    public Machine withCpuStreams(int threads) {
        if (threads < 0) {
            throw new BadInputException("--cpu-streams must be 0 or more: cpu-streams=" + threads);
        }
        if (threads == 0) {
            return this;
        }
        if (sharing == null) {
            throw new BadInputException("--cpu-streams needs a measured sharing curve, and " + id
                    + " has none: calibrate a unified-memory GPU (DGX Spark, GH200) with the GPU suite");
        }
        double share = sharing.gpuShare(threads);
        String why = String.format(Locale.ROOT, "x %.3f while %d CPU threads stream (measured sharing curve: %s)", share,
                threads, sharing.source());
        List<MemoryTier> tiers = new ArrayList<>();
        for (MemoryTier tier : device.tiers()) {
            tiers.add(tier.scaled(share, why));
        }
        List<String> more = new ArrayList<>(notes);
        more.add(String.format(Locale.ROOT, "%d CPU threads stream alongside training: %s gets %.1f%% of its memory "
                + "bandwidth (measured sharing curve: %s; %s)", threads, device.name(), 100 * share, sharing.describe(),
                sharing.source()));
        return new Machine(id, name, source, device.withTiers(tiers), host, links, tenants, more, sharing);
    }

    public Machine {
        if (id == null || id.isBlank() || device == null) {
            throw new BadInputException("machine needs an id and a device");
        }
        if (!device.hasCompute()) {
            throw new BadInputException(id + " has no compute ceiling for its " + device.name()
                    + ": give one with --peak-flops " + id + ":bf16=VALUE (for example 92T)");
        }
        if (name == null) {
            name = id;
        }
        links = links == null ? List.of() : List.copyOf(links);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * Why this machine has no datasheet answer for work in {@code precision}, or empty when it has one: a
     * datasheet prediction needs the datasheet's main-memory bandwidth and its dense peak (most CPUs have
     * neither in the catalog). Without them the datasheet column is "unknown", never the measured figure again.
     */
    public Optional<String> datasheetUnknown(Precision precision) {
        List<String> missing = new ArrayList<>();
        if (!device.mainMemory().ceiling(AccessPattern.READ).hasDatasheet()) {
            missing.add("main-memory bandwidth");
        }
        ComputeCeiling compute = device.computeFor(precision);
        if (compute == null || !compute.peakDense().hasDatasheet()) {
            missing.add((compute == null ? precision : compute.precision()).label() + " peak");
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("no datasheet " + String.join(" or ", missing) + " for " + device.name()
                        + " (" + id + "): the datasheet column is unknown");
    }

    /** The first link of that kind, or null. */
    public Link link(Link.Kind kind) {
        for (Link link : links) {
            if (link.kind() == kind) {
                return link;
            }
        }
        return null;
    }

    public Link link(String linkId) {
        for (Link link : links) {
            if (link.id().equalsIgnoreCase(linkId)) {
                return link;
            }
        }
        return null;
    }

    /**
     * What-if {@code --memory-bandwidth}: the main memory's read ceiling becomes {@code bytesPerSecond}
     * on both bases, and the other patterns keep their ratio to read (so a profile whose triad is 8%
     * below its read stays 8% below).
     */
    public Machine withMemoryBandwidth(double bytesPerSecond) {
        String why = "set on the command line: --memory-bandwidth " + Units.formatBandwidth(bytesPerSecond);
        MemoryTier main = device.mainMemory();
        Map<AccessPattern, Ceiling> replaced = new EnumMap<>(AccessPattern.class);
        for (AccessPattern pattern : AccessPattern.values()) {
            Ceiling old = main.ceiling(pattern);
            double measuredRatio = ratio(old, main.ceiling(AccessPattern.READ), Basis.MEASURED);
            double datasheetRatio = ratio(old, main.ceiling(AccessPattern.READ), Basis.DATASHEET);
            String text = pattern == AccessPattern.READ ? why
                    : why + " x " + String.format(java.util.Locale.ROOT, "%.3f", measuredRatio)
                    + " (the " + pattern.name().toLowerCase(java.util.Locale.ROOT) + "/read ratio of the replaced figures)";
            replaced.put(pattern, new Ceiling(bytesPerSecond * datasheetRatio, text, bytesPerSecond * measuredRatio, text));
        }
        List<MemoryTier> tiers = new ArrayList<>(device.tiers());
        tiers.set(tiers.size() - 1, main.withBandwidth(replaced));
        return withDevice(device.withTiers(tiers), "main-memory bandwidth " + why);
    }

    /** What-if {@code --peak-flops bf16=92T}, as {@link ComputeCeiling#whatIf} describes it. */
    public Machine withPeakFlops(Precision precision, double flopsPerSecond) {
        Map<Precision, ComputeCeiling> compute = new EnumMap<>(Precision.class);
        compute.putAll(device.compute());
        compute.put(precision, ComputeCeiling.whatIf(compute.get(precision), precision, flopsPerSecond));
        return withDevice(device.withCompute(compute), "peak " + precision.label() + " set on the command line: "
                + Units.formatFlops(flopsPerSecond));
    }

    /**
     * The machine at another pace: every memory ceiling of the training device times {@code bandwidthFactor},
     * every compute ceiling (GEMM, products, elementwise rates) times {@code computeFactor}. What a drift probe that
     * measured the host faster or slower than its profile says the profile would have been.
     */
    public Machine scaled(double bandwidthFactor, double computeFactor, String why) {
        return withDevice(device.scaled(bandwidthFactor, computeFactor, why), why);
    }

    public Machine withDevice(Device replaced, String note) {
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.add(note);
        return new Machine(id, name, source, replaced, host, links, tenants, allNotes, sharing);
    }

    private static double ratio(Ceiling pattern, Ceiling read, Basis basis) {
        return pattern.value(basis) / read.value(basis);
    }
}
