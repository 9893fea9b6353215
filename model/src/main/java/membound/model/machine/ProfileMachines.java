package membound.model.machine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.Figure;
import membound.hardware.catalog.LinkSpec;
import membound.hardware.catalog.PlatformSpec;
import membound.model.Defaults;
import membound.profile.ComputeEntry;
import membound.profile.FlopCeiling;
import membound.profile.LevelCeiling;
import membound.profile.Nominal;
import membound.profile.OperationEntry;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Provenance;
import membound.profile.Quality;
import membound.profile.TenantEntry;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.Units;

/**
 * The profile adapter: a calibrated profile as the model's {@link Machine}. Measured ceilings are read as the
 * calibrator chose them, one per access pattern and memory level, with the profile's nominal figures beside them as
 * the datasheet basis. The training device is the GPU where the profile measured one, else the CPU; the other device,
 * if any, is the host memory that offloading goes to.
 */
final class ProfileMachines {

    private ProfileMachines() {
    }

    static Machine profile(Path file, String deviceId, Overrides overrides) {
        Profile profile = ProfileJson.read(file);
        return fromProfile(profile, file.toString(), deviceId, overrides);
    }

    /**
     * @param origin the file the profile came from, for sources and errors
     * @param deviceId the device to train on, or null for the GPU if there is one, else the CPU
     */
    static Machine fromProfile(Profile profile, String origin, String deviceId, Overrides overrides) {
        String platformId = profile.nominal().platformId();
        membound.profile.Device trainer = chooseDevice(profile, origin, deviceId,
                platformId == null ? null : ThirdPartyFigures.of(platformId));
        PlatformSpec spec = platformId == null ? null : Catalog.builtIn().find(platformId).orElse(null);
        // The third-party figures the model knows for a platform are its accelerator's: a CPU never gets them.
        ThirdPartyFigures.Known known = platformId == null || trainer.kind() == DeviceKind.CPU ? null
                : ThirdPartyFigures.of(platformId);
        String id = "profile:" + Path.of(origin).getFileName();
        List<String> names = List.of(id, String.valueOf(Path.of(origin).getFileName()), "profile",
                platformId == null ? "profile" : platformId);
        List<String> notes = new ArrayList<>();
        if (known != null && trainer.levels().isEmpty() && known.hasMemoryAndGemm()) {
            notes.add("the profile's " + trainer.id() + " has no measured memory ceiling: published third-party "
                    + "measurements of " + platformId + " stand in on the measured basis (" + known.readSource() + ")");
        }
        Device device = profileDevice(profile, trainer, origin, known, overrides.peakFlops(names), notes);
        Device host = null;
        if (trainer.kind() != DeviceKind.CPU) {
            for (membound.profile.Device d : profile.devices()) {
                if (d.kind() == DeviceKind.CPU) {
                    host = profileDevice(profile, d, origin, null, Map.of(), new ArrayList<>());
                    break;
                }
            }
        }
        List<Link> links = links(profile, spec, origin);
        for (Quality.Flag flag : profile.quality().flags()) {
            if (flag.deviceId() == null || flag.deviceId().equals(trainer.id())) {
                notes.add("profile quality " + flag.code() + ": " + flag.message());
            }
        }
        String source = "profile " + origin + " (" + profile.host().hostname() + ", " + profile.provenance().createdUtc()
                + (platformId != null ? ", platform " + platformId : "") + ")";
        SharingCurve sharing = sharingCurve(trainer, origin);
        if (sharing != null) {
            notes.add(String.format(Locale.ROOT, "measured sharing of the unified memory: %s keeps %s of its Triad "
                    + "while CPU threads stream%s (--cpu-streams N applies it)", trainer.name(), sharing.describe(),
                    Double.isNaN(sharing.cpuBytesPerSecondWhileGpuStreams()) ? "" : String.format(Locale.ROOT,
                            "; %d CPU threads reach %s while the GPU streams", sharing.cpuThreads(),
                            Units.formatBandwidth(sharing.cpuBytesPerSecondWhileGpuStreams()))));
        }
        Machine machine = new Machine(id, profile.host().hostname() + " (" + trainer.name() + ")", source, device, host,
                links, tenantsCurve(trainer, origin), notes, sharing);
        Double bandwidth = overrides.memoryBandwidth(names);
        return bandwidth == null ? machine : machine.withMemoryBandwidth(bandwidth);
    }

    /** The profile's links, each with the catalog's figure for a link of its kind beside the measured one. */
    private static List<Link> links(Profile profile, PlatformSpec spec, String origin) {
        List<Link> links = new ArrayList<>();
        for (membound.profile.Link l : profile.links()) {
            Link.Kind kind = Link.Kind.of(l.kind(), false);
            Ceiling bandwidth = null;
            if (l.bandwidthBytesPerSecond() != null) {
                bandwidth = Ceiling.measured(l.bandwidthBytesPerSecond().typical(), describe(l.provenance()) + " (profile " + origin + ")");
            }
            if (spec != null) {
                for (LinkSpec ls : spec.links()) {
                    if (CatalogMachines.linkKind(ls) == kind) {
                        Figure f = ls.bytesPerSecondPerDirection();
                        bandwidth = bandwidth == null ? Ceiling.datasheet(f.value(), f.source())
                                : bandwidth.withDatasheet(f.value(), f.source());
                        break;
                    }
                }
            }
            if (bandwidth == null) {
                continue;
            }
            double latencySeconds = l.latencyNanos() == null ? 0 : l.latencyNanos() * 1e-9;
            links.add(new Link(l.id(), l.id() + " (" + l.kind() + ", " + l.from() + " to " + l.to() + ")", kind,
                    bandwidth, latencySeconds, l.latencyNanos() == null ? "no latency in the profile: taken as 0"
                    : "profile " + origin));
        }
        return links;
    }

    /**
     * The device to train on: the one asked for; else a GPU with measurements; else a GPU without any where the
     * platform has published measurements of its memory and GEMM rates ({@link ThirdPartyFigures}: they stand in,
     * and the machine's notes say so); else the CPU.
     */
    private static membound.profile.Device chooseDevice(Profile profile, String origin, String deviceId,
                                                        ThirdPartyFigures.Known published) {
        if (deviceId != null) {
            return profile.device(deviceId).orElseThrow(() -> new BadInputException(
                    "device must be one of the profile's devices (" + String.join(", ",
                            profile.devices().stream().map(membound.profile.Device::id).toList()) + "): device="
                            + deviceId + ", file=" + origin));
        }
        for (membound.profile.Device d : profile.devices()) {
            if (d.kind() != DeviceKind.CPU && (!d.compute().isEmpty() || !d.levels().isEmpty())) {
                return d;
            }
        }
        if (published != null && published.hasMemoryAndGemm()) {
            for (membound.profile.Device d : profile.devices()) {
                if (d.kind() == DeviceKind.GPU) {
                    return d;
                }
            }
        }
        for (membound.profile.Device d : profile.devices()) {
            if (d.kind() == DeviceKind.CPU) {
                return d;
            }
        }
        if (profile.devices().isEmpty()) {
            throw new BadInputException("profile must describe at least one device: file=" + origin + ", devices=[]");
        }
        return profile.devices().get(0);
    }

    /** How much faster than DRAM a cache level's measured rate must be to count as a cache. */
    static final double CACHE_MARGIN = 1.10;

    /**
     * A cache level whose measured bandwidth is not more than {@link #CACHE_MARGIN} times main memory's, for every
     * pattern both have, did not hold its working set: the calibrator sized it from a cache size the host reported
     * (a VM's CPUID can report a whole socket's last-level cache, or more), and the model would otherwise run every
     * operation of that size at a rate measured on data that came from DRAM, by the pattern that level has (usually
     * only Triad). Such a level is left out, and the machine's notes say so.
     */
    private static boolean fasterThanMainMemory(MemoryTier cache, java.util.Set<AccessPattern> measured, MemoryTier dram,
                                                String origin, List<String> notes) {
        Map<AccessPattern, Ceiling> ownCeilings = new EnumMap<>(AccessPattern.class);
        cache.bandwidth().forEach((pattern, c) -> {
            if (measured.contains(pattern)) {
                ownCeilings.put(pattern, c);
            }
        });
        for (Map.Entry<AccessPattern, Ceiling> entry : ownCeilings.entrySet()) {
            Ceiling own = entry.getValue();
            Ceiling main = dram.bandwidth().get(entry.getKey());
            if (main == null || !own.hasMeasured() || !main.hasMeasured()
                    || own.measured() > main.measured() * CACHE_MARGIN) {
                return true;
            }
        }
        Map.Entry<AccessPattern, Ceiling> first = ownCeilings.entrySet().iterator().next();
        notes.add(String.format(Locale.ROOT, "%s left out: its measured %s %.1f GB/s is not above DRAM's %.1f GB/s "
                        + "(profile %s): its working set did not stay in the cache, so operations of its size run at "
                        + "main memory's rates", cache.name(), first.getKey().label(), first.getValue().measured() / 1e9,
                dram.bandwidth().get(first.getKey()).measured() / 1e9, origin));
        return false;
    }

    private static Device profileDevice(Profile profile, membound.profile.Device d, String origin,
                                        ThirdPartyFigures.Known known, Map<Precision, Double> peakOverrides,
                                        List<String> notes) {
        Long capacity = d.memory() != null ? d.memory().capacityBytes() : null;
        String capacitySource;
        if (capacity != null) {
            capacitySource = describe(d.memory().provenance()) + " (profile " + origin + ")";
        } else if (profile.host().memoryBytes() != null) {
            capacity = profile.host().memoryBytes();
            capacitySource = "host memory in profile " + origin;
        } else {
            throw new BadInputException("profile device must give its memory capacity: file=" + origin + ", device="
                    + d.id() + ", memory.capacityBytes=<missing>");
        }
        List<MemoryTier> tiers = memoryTiers(profile, d, capacity, origin, known, notes);
        Map<Precision, ComputeCeiling> compute = new EnumMap<>(Precision.class);
        Ceiling vector = null;
        for (Precision p : Precision.TRAINING) {
            ComputeCeiling ceiling = computeCeiling(profile, d, p, origin, known, notes);
            if (ceiling == null) {
                continue;
            }
            compute.put(p, ceiling);
            if (p == Precision.FP32 && d.computeCeiling(p, ComputeEntry.Kind.FMA_PEAK).isPresent()) {
                vector = ceiling.peakDense();
            }
        }
        Machines.applyPeakOverrides(compute, peakOverrides);
        DeviceKind kind = d.kind() == DeviceKind.CPU ? DeviceKind.CPU : DeviceKind.GPU;
        return new Device(d.id(), d.name(), kind, capacity, capacitySource, !d.unifiedMemoryWith().isEmpty(), tiers,
                compute, vector, kernelLaunch(d, origin));
    }

    /**
     * The device's sharing curve: its Triad (typical) with each number of CPU threads streaming over its Triad alone,
     * and the CPU's Triad while it streamed; null without both the GPU alone and one point with CPU threads.
     */
    static SharingCurve sharingCurve(membound.profile.Device d, String origin) {
        java.util.TreeMap<Integer, Double> gpu = new java.util.TreeMap<>();
        double cpu = Double.NaN;
        int cpuThreads = 0;
        for (membound.profile.SharingEntry entry : d.sharing()) {
            if (entry.measured().equals("gpu")) {
                gpu.put(entry.cpuThreadsStreaming(), entry.streamBytesPerSecond().typical());
            } else if (entry.measured().equals("cpu") && entry.gpuStreaming()) {
                cpu = entry.streamBytesPerSecond().typical();
                cpuThreads = entry.cpuThreadsStreaming();
            }
        }
        Double alone = gpu.get(0);
        if (alone == null || gpu.size() < 2) {
            return null;
        }
        java.util.TreeMap<Integer, Double> shares = new java.util.TreeMap<>();
        gpu.forEach((threads, rate) -> shares.put(threads, rate / alone));
        return new SharingCurve(shares, cpuThreads, cpu, describe(d.sharing().get(0).provenance()) + " (profile "
                + origin + ")");
    }

    /** The device's back-to-back kernel launch interval (median), where its suite measured one. */
    static Ceiling kernelLaunch(membound.profile.Device d, String origin) {
        if (d.launch() == null) {
            return null;
        }
        return Ceiling.measured(d.launch().launchIntervalNanos().p50() * 1e-9, describe(d.launch().provenance())
                + " median of " + d.launch().launchIntervalNanos().samples() + " samples (profile " + origin + ")");
    }

    /**
     * The memory tiers, fastest first: each cache level the profile has ceilings for (and a capacity), then DRAM with
     * every pattern (an unmeasured one takes its nearest measured one) and the nominal figure beside each.
     */
    private static List<MemoryTier> memoryTiers(Profile profile, membound.profile.Device d, long capacity,
                                                String origin, ThirdPartyFigures.Known known, List<String> notes) {
        Optional<Nominal.MemoryBandwidth> nominal = profile.nominal().memoryBandwidthOf(d.id());
        List<MemoryTier> tiers = new ArrayList<>();
        Map<String, java.util.Set<AccessPattern>> measured = new java.util.HashMap<>();
        for (MemoryLevel level : MemoryLevel.values()) {
            Map<AccessPattern, Ceiling> patterns = levelCeilings(d, level, origin);
            if (level == MemoryLevel.DRAM && patterns.isEmpty() && known != null && known.hasMemoryAndGemm()) {
                // No profile entry, so no stored completion: the published read figure stands in for the other
                // patterns by the calibrator's order (MemoryCeilingRule.complete), each saying whose figure it took.
                patterns.put(AccessPattern.READ, Ceiling.measured(known.readBytesPerSecond(), known.readSource()));
                for (AccessPattern pattern : AccessPattern.values()) {
                    for (AccessPattern near : pattern.fallbacks()) {
                        Ceiling c = patterns.get(near);
                        if (!patterns.containsKey(pattern) && c != null) {
                            patterns.put(pattern, Ceiling.measured(c.measured(), c.measuredSource() + "; no "
                                    + pattern.label() + " measured: the " + near.label() + " figure stands in"));
                        }
                    }
                }
            }
            if (level == MemoryLevel.DRAM) {
                MemoryTier dram = dramTier(patterns, nominal, capacity, origin, d.id());
                tiers.removeIf(cache -> !fasterThanMainMemory(cache, measured.get(cache.name()), dram, origin, notes));
                tiers.add(dram);
            } else if (!patterns.isEmpty()) {
                long levelCapacity = cacheCapacity(profile, level);
                if (levelCapacity > 0) {
                    tiers.add(new MemoryTier(level.toString(), levelCapacity, patterns));
                    measured.put(level.toString(), ownPatterns(d, level));
                }
            }
        }
        return tiers;
    }

    /**
     * The profile's ceilings at one level, one to one by pattern, as the calibrator chose them: a pattern nothing
     * measured takes another's figure where the profile says so ({@link LevelCeiling#takenFrom()}), with that one's
     * source and the reason.
     */
    private static Map<AccessPattern, Ceiling> levelCeilings(membound.profile.Device d, MemoryLevel level,
                                                             String origin) {
        Map<AccessPattern, LevelCeiling> stored = new EnumMap<>(AccessPattern.class);
        for (LevelCeiling c : d.levels()) {
            if (c.level() == level) {
                stored.put(c.access(), c);
            }
        }
        Map<AccessPattern, Ceiling> patterns = new EnumMap<>(AccessPattern.class);
        for (LevelCeiling c : stored.values()) {
            patterns.put(c.access(), Ceiling.measured(c.bytesPerSecond(),
                    levelSource(c, stored, origin, d.writeAllocation()),
                    c.bandwidthId() == null ? null : new Ceiling.ProfileEntry(origin, d.id(),
                            Ceiling.ProfileEntry.Kind.BANDWIDTH, c.bandwidthId())));
        }
        return patterns;
    }

    /** Where a stored ceiling's figure came from; for one taken from another pattern, that one's source and why. */
    private static String levelSource(LevelCeiling c, Map<AccessPattern, LevelCeiling> level, String origin,
                                      membound.profile.WriteAllocation stores) {
        if (!c.standsIn()) {
            return describe(c.provenance()) + ", " + c.statistic() + (c.inHardwareBytes() ? " in hardware bytes ("
                    + hardwareBytes(stores) + "; an update in place allocates nothing)" : "") + " (profile " + origin + ")";
        }
        LevelCeiling from = level.get(c.takenFrom());
        if (from == null) {
            throw new IllegalStateException("ceiling " + c.level() + "/" + c.access() + " is taken from "
                    + c.takenFrom() + ", which the level lacks");
        }
        String source = levelSource(from, level, origin, stores);
        if (takesTheCopyAsItIs(c, from)) {
            return source + "; no hardware-byte figure: the copy figure as it is";
        }
        if (c.level() != MemoryLevel.DRAM) {
            // A cache level's pattern is timed at its nearest measured one, by that one's own words.
            return source;
        }
        return source + "; no " + c.access().label() + " measured: the " + c.takenFrom().label() + " figure stands in";
    }

    /**
     * What a hardware-byte ceiling counts, by what the profile says of the CPU's stores: write-allocate, as every
     * profile before schema 4 assumed (and one whose measurement could not tell still does), or, where measured,
     * whether the stores allocate.
     */
    private static String hardwareBytes(membound.profile.WriteAllocation stores) {
        if (stores == null || stores.answer() == membound.profile.WriteAllocation.Answer.ASSUMED) {
            return "write-allocate counted";
        }
        return switch (stores.answer()) {
            case YES -> "write-allocate counted, as measured on this CPU";
            case NO -> "this CPU's stores measured not to allocate: the copy's own bytes";
            default -> "write-allocate counted, assumed: this CPU's measurement could not tell";
        };
    }

    /** An update ceiling that is the level's measured copy figure as it is (no hardware-byte figure). */
    private static boolean takesTheCopyAsItIs(LevelCeiling c, LevelCeiling from) {
        return c.access() == AccessPattern.UPDATE && c.takenFrom() == AccessPattern.COPY && !from.standsIn();
    }

    /**
     * The patterns of a level a kernel measured, with the update taken from the measured copy as it is: what says
     * whether a cache level held its working set ({@link #fasterThanMainMemory}).
     */
    private static java.util.Set<AccessPattern> ownPatterns(membound.profile.Device d, MemoryLevel level) {
        java.util.Set<AccessPattern> own = java.util.EnumSet.noneOf(AccessPattern.class);
        Map<AccessPattern, LevelCeiling> stored = new EnumMap<>(AccessPattern.class);
        d.levels().stream().filter(c -> c.level() == level).forEach(c -> stored.put(c.access(), c));
        for (LevelCeiling c : stored.values()) {
            if (!c.standsIn() || takesTheCopyAsItIs(c, stored.get(c.takenFrom()))) {
                own.add(c.access());
            }
        }
        return own;
    }

    /**
     * Main memory: the profile's ceilings (every pattern, as the calibrator completed them) with the nominal figure set
     * beside each. Published third-party figures standing in for a GPU nothing measured are no profile entries: the
     * one read figure they give stands in for every pattern, as the calibrator's completion would have it.
     */
    private static MemoryTier dramTier(Map<AccessPattern, Ceiling> patterns, Optional<Nominal.MemoryBandwidth> nominal,
                                       long capacity, String origin, String deviceId) {
        if (nominal.isPresent()) {
            Nominal.MemoryBandwidth n = nominal.get();
            for (AccessPattern pattern : AccessPattern.values()) {
                Ceiling c = patterns.get(pattern);
                String src = describe(n.provenance());
                patterns.put(pattern, c == null ? Ceiling.datasheet(n.bytesPerSecond(), src)
                        : c.withDatasheet(n.bytesPerSecond(), src));
            }
        }
        if (patterns.isEmpty()) {
            throw new BadInputException("profile device must have a DRAM ceiling or a nominal memory bandwidth: file="
                    + origin + ", device=" + deviceId);
        }
        return new MemoryTier("DRAM", capacity, patterns);
    }

    /**
     * One precision's compute ceiling: the datasheet (or third-party derived) peak beside the measured FMA peak, the
     * attainable GEMM (measured, else the FMA peak as an upper bound, beside the datasheet fraction), the measured
     * products, and in FP32 the measured elementwise rates; null where there is no figure at all.
     */
    private static ComputeCeiling computeCeiling(Profile profile, membound.profile.Device d, Precision p, String origin,
                                                 ThirdPartyFigures.Known known, List<String> notes) {
        Optional<FlopCeiling> gemm = d.computeCeiling(p, ComputeEntry.Kind.GEMM);
        Optional<FlopCeiling> fma = d.computeCeiling(p, ComputeEntry.Kind.FMA_PEAK);
        Optional<Nominal.Compute> dense = profile.nominal().computeOf(d.id(), p);
        Optional<Nominal.Compute> sparse = profile.nominal().compute().stream()
                .filter(c -> c.state() == Nominal.State.KNOWN && c.sparse() && c.deviceId().equals(d.id())
                        && c.precision() == p).findFirst();
        Double derived = known == null ? null : known.derivedPeakFlopsPerSecond().get(p);
        Ceiling peak = null;
        if (dense.isPresent()) {
            peak = Ceiling.datasheet(dense.get().flopsPerSecond(), describe(dense.get().provenance()));
        } else if (derived != null) {
            peak = Ceiling.datasheet(derived, known.derivedSource());
        }
        if (fma.isPresent()) {
            FlopCeiling f = fma.get();
            Ceiling measured = Ceiling.measured(f.flopsPerSecond(), describe(f.provenance()) + " FMA peak (profile "
                    + origin + ")", computeEntry(origin, d, f));
            peak = peak == null ? measured : peak.withMeasuredOf(measured);
        }
        Ceiling attainable = null;
        if (peak != null && peak.hasDatasheet()) {
            attainable = Ceiling.datasheet(peak.datasheet() * Defaults.GEMM_FRACTION_OF_PEAK,
                    Defaults.GEMM_FRACTION_SOURCE + " (" + peak.datasheetSource() + ")");
        }
        Ceiling measured = gemm.map(g -> gemmCeiling(g, d, origin))
                .orElseGet(() -> publishedGemm(known, p));
        if (measured != null) {
            if (gemm.isPresent() && !gemm.get().measuredAsItIs()) {
                notes.add(d.name() + " " + p.label() + ": " + measured.measuredSource()
                        + "; measure one with membound calibrate --quick");
            }
            attainable = attainable == null ? measured : attainable.withMeasuredOf(measured);
            if (peak == null) {
                peak = Ceiling.measured(measured.measured(), measured.measuredSource() + "; no peak known: the GEMM rate stands in");
            }
        }
        if (peak == null) {
            return null;
        }
        // The elementwise kernels run in FP32.
        List<OperationRate> operations = p == Precision.FP32 ? operationRates(d, origin) : List.of();
        return new ComputeCeiling(p, peak, attainable,
                sparse.map(c -> Ceiling.datasheet(c.flopsPerSecond(), describe(c.provenance()))).orElse(null),
                products(d, p, origin), operations);
    }

    /**
     * The stored GEMM ceiling on the measured basis: a measured GEMM as it is, or a fraction of the FMA peak where the
     * calibrator's rule derated one (it stores the fraction and where it comes from).
     */
    private static Ceiling gemmCeiling(FlopCeiling g, membound.profile.Device d, String origin) {
        if (!g.measuredAsItIs()) {
            return Ceiling.measured(g.flopsPerSecond(), g.fractionSource() + " (" + describe(g.provenance())
                    + " FMA peak, profile " + origin + ")", computeEntry(origin, d, g));
        }
        Long order = d.computeEntry(g.computeId()).map(ComputeEntry::matrixSize).orElse(null);
        return Ceiling.measured(g.flopsPerSecond(), describe(g.provenance()) + " GEMM"
                + (order != null ? " n=" + order : "") + " (profile " + origin + ")", computeEntry(origin, d, g));
    }

    /** A platform's published GEMM rate, standing in on the measured basis for a GPU nothing measured; else null. */
    private static Ceiling publishedGemm(ThirdPartyFigures.Known known, Precision p) {
        Double published = known == null ? null : known.gemmFlopsPerSecond().get(p);
        return published == null ? null : Ceiling.measured(published, known.gemmSource());
    }

    private static Ceiling.ProfileEntry computeEntry(String origin, membound.profile.Device d, FlopCeiling c) {
        return new Ceiling.ProfileEntry(origin, d.id(), Ceiling.ProfileEntry.Kind.COMPUTE, c.computeId());
    }

    /** The measured products of one precision. */
    private static List<ProductCeiling> products(membound.profile.Device d, Precision p, String origin) {
        List<ProductCeiling> products = new ArrayList<>();
        for (ComputeEntry entry : d.compute()) {
            if (entry.kind() == ComputeEntry.Kind.PRODUCT && entry.precision() == p) {
                ProductShape shape = entry.shape();
                products.add(new ProductCeiling(shape, entry.flopsPerSecond().typical(),
                        describe(entry.provenance()) + " product " + shape + " (compute entry " + entry.id()
                                + ", profile " + origin + ")"));
            }
        }
        return products;
    }

    /** The measured elementwise rates the model times its row operations at. */
    private static List<OperationRate> operationRates(membound.profile.Device d, String origin) {
        List<OperationRate> operations = new ArrayList<>();
        for (OperationEntry entry : d.operations()) {
            operations.add(new OperationRate(entry.operation(), entry.rowLength(), entry.elementsPerSecond().typical(),
                    describe(entry.provenance()) + " " + entry.operation() + " on rows of " + entry.rowLength()
                            + " (entry " + entry.id() + ", profile " + origin + ")"));
        }
        return operations;
    }

    /** All caches of that level together (what a kernel spread over every core can use). */
    private static long cacheCapacity(Profile profile, MemoryLevel level) {
        int number = level.cacheLevel();
        long total = 0;
        for (membound.profile.Host.Cache cache : profile.host().caches()) {
            if (cache.level() == number && !"instruction".equals(cache.type())) {
                total += cache.totalBytes();
            }
        }
        return total;
    }

    private static TenantsCurve tenantsCurve(membound.profile.Device d, String origin) {
        Map<String, TreeMap<Integer, Double>> byKernel = new TreeMap<>();
        Map<String, String> sources = new TreeMap<>();
        for (TenantEntry t : d.tenants()) {
            if (t.level() != MemoryLevel.DRAM) {
                continue;
            }
            byKernel.computeIfAbsent(t.kernel(), k -> new TreeMap<>()).put(t.tenants(), t.perTenantBytesPerSecond().typical());
            sources.putIfAbsent(t.kernel(), describe(t.provenance()));
        }
        String chosen = byKernel.containsKey("triad") && byKernel.get("triad").containsKey(1) ? "triad" : null;
        if (chosen == null) {
            for (Map.Entry<String, TreeMap<Integer, Double>> e : byKernel.entrySet()) {
                if (e.getValue().containsKey(1) && e.getValue().size() > 1) {
                    chosen = e.getKey();
                    break;
                }
            }
        }
        if (chosen == null || byKernel.get(chosen).size() < 2) {
            return null;
        }
        return new TenantsCurve(byKernel.get(chosen), chosen + " per tenant, " + sources.get(chosen) + " (profile " + origin + ")");
    }

    static String describe(Provenance p) {
        if (p == null) {
            return "no provenance";
        }
        StringBuilder text = new StringBuilder(p.kind().toString()).append(": ").append(p.source());
        if (p.kernel() != null) {
            text.append(", kernel ").append(p.kernel());
        }
        if (p.file() != null) {
            text.append(", file ").append(p.file());
        }
        return text.toString();
    }
}
