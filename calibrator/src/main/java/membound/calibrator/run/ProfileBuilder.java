package membound.calibrator.run;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.latency.LatencyBenchmark;
import membound.benchmarks.placement.CpuBinding;
import membound.benchmarks.results.ComputeResult;
import membound.benchmarks.results.ElementwiseResult;
import membound.benchmarks.results.LatencyResult;
import membound.benchmarks.results.StreamResult;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamWorkload;
import membound.calibrator.ceiling.ComputeCeilingRule;
import membound.calibrator.ceiling.MemoryCeilingRule;
import membound.calibrator.ceiling.WriteAllocationRule;
import membound.hardware.catalog.DeviceSpec;
import membound.hardware.catalog.PlatformSpec;
import membound.hardware.host.Host;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Efficiency;
import membound.profile.LatencyEntry;
import membound.profile.Link;
import membound.profile.Nominal;
import membound.profile.OperationEntry;
import membound.profile.Profile;
import membound.profile.Provenance;
import membound.profile.Quality;
import membound.profile.RunProvenance;
import membound.profile.ScalingCurve;
import membound.profile.TenantEntry;
import membound.profile.WriteAllocation;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;

/**
 * Turns a calibration's JMH results into a profile: every figure keeps its distribution and says which
 * kernel, with which settings, measured it; the ceilings the model uses are chosen from them by rule
 * (the full team, the Vector API kernel, doubles); the datasheet figures sit beside them with their source.
 */
final class ProfileBuilder {

    /** A figure whose rates vary more than this (std/mean over passes) is flagged noisy, never silently averaged. */
    static final double NOISY_COEFFICIENT_OF_VARIATION = membound.benchmarks.results.RunFlags.NOISY_COEFFICIENT_OF_VARIATION;

    static final String CPU = "cpu";
    static final String GPU = "gpu";

    private final Host host;
    private final CacheSizes caches;
    private final Optional<PlatformSpec> platform;
    private final NominalBandwidth nominal;
    private final Map<String, String> runSettings;
    private final String commandLine;
    private final Instant created;
    private final String memboundVersion;

    /** The host's nominal memory bandwidth: a datasheet's, one the user gave, or unknown with the reason. */
    record NominalBandwidth(Double bytesPerSecond, Provenance provenance, String unknownReason) {
    }

    ProfileBuilder(Host host, CacheSizes caches, Optional<PlatformSpec> platform, NominalBandwidth nominal,
            Map<String, String> runSettings, String commandLine, Instant created, String memboundVersion) {
        this.host = host;
        this.caches = caches;
        this.platform = platform;
        this.nominal = nominal;
        this.runSettings = new TreeMap<>(runSettings);
        this.commandLine = commandLine;
        this.created = created;
        this.memboundVersion = memboundVersion;
    }

    Profile build(List<RunResult> results, LoadReport load) {
        return build(results, load, List.of());
    }

    /** @param tenants the tenants curve, where one was measured */
    Profile build(List<RunResult> results, LoadReport load, List<TenantEntry> tenants) {
        return build(results, load, tenants, null);
    }

    /**
     * @param gpu what the GPU suite measured, or why it measured nothing (the profile is flagged
     *            {@value GpuMeasurement#NOT_MEASURED}); null where no GPU was considered
     */
    Profile build(List<RunResult> results, LoadReport load, List<TenantEntry> tenants, GpuMeasurement.Outcome gpu) {
        return build(results, load, tenants, gpu, MemoryCounters.Reading.NOT_TRIED);
    }

    /**
     * @param counters what the memory controller counted during a write-only stream, or why nothing was counted: with
     *                 the Fill and Sum entries, whether this CPU's stores allocate ({@link WriteAllocationRule}), which
     *                 every hardware-byte figure then counts
     */
    Profile build(List<RunResult> results, LoadReport load, List<TenantEntry> tenants, GpuMeasurement.Outcome gpu,
            MemoryCounters.Reading counters) {
        List<StreamResult> streams = new ArrayList<>();
        List<BandwidthEntry> bandwidth = new ArrayList<>();
        List<LatencyEntry> latency = new ArrayList<>();
        List<ComputeEntry> compute = new ArrayList<>();
        List<OperationEntry> operations = new ArrayList<>();
        // DRAM entries by footprint whose arrays are below STREAM's rule: flagged only where one is a ceiling.
        Map<String, Long> belowDramRule = new TreeMap<>();
        Quality quality = Quality.none();
        for (RunResult result : results) {
            Map<String, String> settings = settings(result);
            if (StreamResult.isStream(result)) {
                StreamResult stream = StreamResult.of(result);
                BandwidthEntry entry = bandwidthEntry(stream, settings);
                streams.add(stream);
                bandwidth.add(entry);
                quality = flagIfNoisy(quality, entry.id(), entry.streamBytesPerSecond());
                if (entry.level() == MemoryLevel.DRAM && stream.workload().arrayBytes() < dramRule()) {
                    belowDramRule.put(entry.id(), stream.workload().arrayBytes());
                }
            } else if (LatencyResult.isLatency(result)) {
                latency.add(latencyEntry(LatencyResult.of(result), settings));
            } else if (ElementwiseResult.isElementwise(result)) {
                OperationEntry entry = operationEntry(ElementwiseResult.of(result), settings);
                operations.add(entry);
                quality = flagIfNoisy(quality, entry.id(), entry.elementsPerSecond());
            } else if (ComputeResult.isCompute(result)) {
                for (ComputeResult figure : ComputeResult.of(result)) {
                    ComputeEntry entry = computeEntry(figure, settings);
                    compute.add(entry);
                    quality = flagIfNoisy(quality, entry.id(), entry.flopsPerSecond());
                }
            }
        }
        for (Quality.Flag flag : computeScaling(compute)) {
            quality = quality.with(flag);
        }
        int mostThreads = bandwidth.stream().mapToInt(BandwidthEntry::threads).max().orElse(host.logicalCpus());
        if (mostThreads < host.logicalCpus()) {
            quality = quality.with(new Quality.Flag("fewer-threads-than-cores", "the largest team had " + mostThreads
                    + " threads but this host has " + host.logicalCpus() + " logical cpus", CPU, null));
        }
        if (load.message() != null) {
            quality = quality.with(new Quality.Flag("load-seen", load.message(), CPU, null));
        } else if (!load.monitored()) {
            quality = quality.with(new Quality.Flag("load-unmonitored", "other processes' cpu time could not be read "
                    + "(no /proc): a run that shared the machine would not be flagged", CPU, null));
        }
        if ("smoke".equals(runSettings.get("mode"))) {
            quality = quality.with(new Quality.Flag("smoke-run", "a smoke run (tiny working sets, one short iteration) "
                    + "checks that calibration works; its figures are not this machine's ceilings", CPU, null));
        }
        for (String warning : host.warnings()) {
            if (warning.equals(membound.hardware.host.Host.THP_MADVISE_WARNING)
                    && "true".equals(runSettings.get("jvm.transparentHugePages"))) {
                continue; // the forks ran with -XX:+UseTransparentHugePages: the heap had huge pages
            }
            quality = quality.with(new Quality.Flag("host-warning", warning, CPU, null));
        }

        List<Device> devices = new ArrayList<>();
        List<Link> links = new ArrayList<>();
        Optional<DeviceSpec> gpuSpec = platform.flatMap(PlatformSpec::gpu);
        Optional<membound.benchmarks.gpu.GpuRun> gpuRun = gpu == null ? Optional.empty() : gpu.run();
        boolean unified = platform.map(PlatformSpec::unifiedMemory).orElse(false) && gpuSpec.isPresent()
                || gpuRun.map(run -> run.device().sharesHostMemory()).orElse(false);
        // What the stores do decides what every hardware-byte figure counts, the update ceiling's among them.
        WriteAllocation writeAllocation = WriteAllocationRule.decide(bandwidth, counters.counters(), counters.note());
        for (int i = 0; i < bandwidth.size(); i++) {
            bandwidth.set(i, withHardwareBytes(bandwidth.get(i), streams.get(i), writeAllocation.storesAllocate()));
        }
        List<membound.profile.LevelCeiling> levels = MemoryCeilingRule.ceilings(bandwidth);
        for (Quality.Flag flag : tooSmallForDram(levels, belowDramRule)) {
            quality = quality.with(flag);
        }
        Device cpu = new Device(CPU, DeviceKind.CPU, cpuName(), memory(), unified ? List.of(GPU) : List.of(),
                bandwidth, levels, scaling(bandwidth), latency, compute,
                ComputeCeilingRule.ceilings(compute), tenants, operations, null, List.of(),
                bandwidth.isEmpty() ? null : writeAllocation);
        devices.add(cpu);
        if (gpuRun.isPresent()) {
            Device measured = GpuProfile.device(gpuRun.get(), unified, runSettings);
            devices.add(measured);
            links.addAll(GpuProfile.links(gpuRun.get(), platform, runSettings));
            for (BandwidthEntry entry : measured.bandwidth()) {
                quality = flagIfNoisy(quality, GPU, entry.id(), entry.streamBytesPerSecond());
            }
        } else {
            gpuSpec.ifPresent(spec -> devices.add(Device.of(GPU, DeviceKind.GPU, spec.name(),
                    new Device.Memory((long) spec.memoryCapacityBytes().value(), null,
                            Provenance.datasheet(spec.memoryCapacityBytes().source())),
                    unified ? List.of(CPU) : List.of())));
        }
        if (gpu != null && gpuRun.isEmpty()) {
            quality = quality.with(new Quality.Flag(GpuMeasurement.NOT_MEASURED, gpu.notMeasuredReason(), null, null));
        }

        Nominal nominalFigures = nominal(devices);
        RunProvenance provenance = RunProvenance.of(memboundVersion, org.openjdk.jmh.util.Version.getPlainVersion(),
                runSettings, commandLine, created, null);
        return new Profile(HostMapping.toProfile(host), nominalFigures, devices, links,
                Efficiency.derive(devices, nominalFigures), quality, provenance);
    }

    /** STREAM's rule for a DRAM figure: every array at least 4x the last-level cache. */
    private long dramRule() {
        return membound.benchmarks.sizing.WorkingSet.DRAM_MULTIPLE * caches.lastLevelTotalBytes();
    }

    /**
     * {@code working-set-too-small} for each DRAM ceiling taken from an entry whose arrays are below STREAM's rule
     * ({@code belowDramRule}: entry id to its bytes per array). A {@code --full} sweep's points between the last-level
     * cache and 4x it are DRAM by their footprint too, but they lose the ceiling to the run sized for DRAM, so they
     * are not flagged: the flag says a ceiling may be partly a cache's, which only a ceiling can be.
     */
    private List<Quality.Flag> tooSmallForDram(List<membound.profile.LevelCeiling> levels,
            Map<String, Long> belowDramRule) {
        java.util.Set<String> ceilings = new java.util.TreeSet<>();
        for (membound.profile.LevelCeiling ceiling : levels) {
            if (ceiling.level() == MemoryLevel.DRAM && ceiling.bandwidthId() != null) {
                ceilings.add(ceiling.bandwidthId());
            }
        }
        List<Quality.Flag> flags = new ArrayList<>();
        belowDramRule.forEach((id, arrayBytes) -> {
            if (ceilings.contains(id)) {
                flags.add(new Quality.Flag("working-set-too-small", "each array is "
                        + membound.vocabulary.units.Units.formatBytes(arrayBytes) + ", below 4x the last-level cache ("
                        + membound.vocabulary.units.Units.formatBytes(dramRule()) + "): part of it may be served from "
                        + "cache", CPU, id));
            }
        });
        return flags;
    }

    private BandwidthEntry bandwidthEntry(StreamResult stream, Map<String, String> settings) {
        StreamWorkload workload = stream.workload();
        String implementation = stream.implementation().label();
        MemoryLevel level = level(stream.workingSetLabel(), workload);
        String id = String.join("-", workload.kernel().name().toLowerCase(Locale.ROOT),
                workload.elementType().javaName(), implementation, workload.threads() + "t",
                stream.workingSetLabel().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]", ""));
        if (!MemoryCeilingRule.isAllCpus(stream.placement())) {
            // The same kernel, team size and working set is measured on each core type: the id says which.
            id += "-" + stream.placement().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-");
        }
        StreamKernel kernel = workload.kernel();
        return new BandwidthEntry(id, kernel.name().toLowerCase(Locale.ROOT), kernel.pattern().orElse(null),
                kernel.pattern().isPresent() && !kernel.measuresPattern(), workload.elementType().javaName(),
                stream.implementation(), workload.threads(), stream.placement(), workload.footprintBytes(), level,
                Distribution.ofDurationHistogram(workload.streamBytesPerPass(), stream.passTimes().histogram()),
                null, Provenance.measured("StreamBenchmark " + workload.kernel().label() + " (" + implementation + ")",
                        null, settings));
    }

    /** The entry with its hardware-byte figure: write-allocate's factor where stores allocate, else STREAM's bytes. */
    private static BandwidthEntry withHardwareBytes(BandwidthEntry entry, StreamResult stream, boolean storesAllocate) {
        return new BandwidthEntry(entry.id(), entry.kernel(), entry.pattern(), entry.standsIn(), entry.elementType(),
                entry.implementation(), entry.threads(), entry.placement(), entry.workingSetBytes(), entry.level(),
                entry.streamBytesPerSecond(), Distribution.ofDurationHistogram(
                        stream.workload().hardwareBytesPerPass(storesAllocate), stream.passTimes().histogram()),
                entry.provenance());
    }

    /** The level a working set lives in: its label if it names one, else by size against the caches. */
    private MemoryLevel level(String label, StreamWorkload workload) {
        switch (label) {
            case "L1": return MemoryLevel.L1;
            case "L2": return MemoryLevel.L2;
            case "L3": return MemoryLevel.L3;
            case "DRAM": return MemoryLevel.DRAM;
            default: break;
        }
        return levelOfFootprint(workload.footprintBytes() / workload.threads(), workload.arrayBytes());
    }

    private MemoryLevel levelOfFootprint(long bytesPerThread, long arrayBytes) {
        if (caches.perCore(1).isPresent() && bytesPerThread <= caches.perCore(1).getAsLong()) {
            return MemoryLevel.L1;
        }
        if (caches.perCore(2).isPresent() && bytesPerThread <= caches.perCore(2).getAsLong()) {
            return MemoryLevel.L2;
        }
        if (arrayBytes < caches.lastLevelTotalBytes() && caches.perCore(3).isPresent()) {
            return MemoryLevel.L3;
        }
        return MemoryLevel.DRAM;
    }

    private LatencyEntry latencyEntry(LatencyResult result, Map<String, String> settings) {
        String label = result.workingSet().label();
        MemoryLevel level = switch (label) {
            case "L1" -> MemoryLevel.L1;
            case "L2" -> MemoryLevel.L2;
            case "L3" -> MemoryLevel.L3;
            case "DRAM" -> MemoryLevel.DRAM;
            default -> levelOfFootprint(result.workingSet().arrayBytes(), result.workingSet().arrayBytes());
        };
        return new LatencyEntry("chase-" + label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]", ""),
                result.workingSet().arrayBytes(), level, "random-line-chase",
                new LatencyEntry.Nanos(result.nanosPerLoad(50), result.nanosPerLoad(90), result.nanosPerLoad(99),
                        result.meanNanosPerLoad(), result.chaseNanos().count()),
                Provenance.measured("LatencyBenchmark (" + LatencyBenchmark.STEPS_PER_INVOCATION
                        + " dependent loads per sample)", null, settings));
    }

    private ComputeEntry computeEntry(ComputeResult figure, Map<String, String> settings) {
        boolean gemm = figure.kind().equals("gemm");
        ProductShape shape = figure.shape();
        ComputeEntry.Kind kind = shape != null ? ComputeEntry.Kind.PRODUCT
                : gemm ? ComputeEntry.Kind.GEMM : ComputeEntry.Kind.FMA_PEAK;
        String benchmark = switch (kind) {
            case PRODUCT -> "ProductBenchmark";
            case GEMM -> "GemmBenchmark";
            case FMA_PEAK -> "FmaBenchmark";
        };
        return new ComputeEntry(computeId(figure), kind,
                figure.elementType().equalsIgnoreCase("double") ? Precision.FP64 : Precision.FP32, figure.threads(),
                gemm ? (long) figure.matrixOrder() : null, shape,
                Distribution.ofDurationHistogram(figure.flopsPerPass(), figure.passTimes().histogram()),
                Provenance.measured(benchmark, null, settings));
    }

    private static OperationEntry operationEntry(ElementwiseResult figure, Map<String, String> settings) {
        return new OperationEntry(figure.operation().label() + "-" + figure.threads() + "t-row" + figure.row(),
                figure.operation(), figure.row(), figure.threads(),
                Distribution.ofDurationHistogram(figure.elementsPerPass(), figure.passTimes().histogram()),
                Provenance.measured("ElementwiseBenchmark", null, settings));
    }

    /** A team's FMA peak must reach this share of its threads times one thread's, or the profile is flagged. */
    static final double COMPUTE_SCALING_THRESHOLD = 0.75;

    /**
     * FMA peaks that did not scale with the threads: {@code compute-not-scaling} for each precision whose largest
     * team reached less than {@link #COMPUTE_SCALING_THRESHOLD} of threads × the one-thread peak. The kernel has
     * no memory traffic, so its threads can only slow each other by sharing a core's vector units: SMT siblings, a
     * VM's vcpus placed on one core by the host, or another process on a cpu. Compute-bound predictions use the
     * all-threads figure, so they inherit what the run saw.
     */
    static List<Quality.Flag> computeScaling(List<ComputeEntry> compute) {
        List<Quality.Flag> flags = new ArrayList<>();
        for (Precision precision : Precision.values()) {
            ComputeEntry one = null;
            ComputeEntry most = null;
            for (ComputeEntry entry : compute) {
                if (entry.kind() != ComputeEntry.Kind.FMA_PEAK || entry.precision() != precision
                        || entry.threads() == null) {
                    continue;
                }
                if (entry.threads() == 1) {
                    one = entry;
                } else if (most == null || entry.threads() > most.threads()) {
                    most = entry;
                }
            }
            if (one == null || most == null) {
                continue;
            }
            double ratio = most.flopsPerSecond().typical() / one.flopsPerSecond().typical();
            if (ratio < COMPUTE_SCALING_THRESHOLD * most.threads()) {
                flags.add(new Quality.Flag("compute-not-scaling", String.format(Locale.ROOT,
                        "the FMA peak (%s) with %d threads is %.2fx one thread's, below %.2fx: the threads share "
                                + "vector units (SMT siblings, vcpus the host put on one core) or another process "
                                + "took a cpu; compute ceilings from this run are the machine's at that moment",
                        precision.name().toLowerCase(Locale.ROOT), most.threads(), ratio,
                        COMPUTE_SCALING_THRESHOLD * most.threads()), CPU, most.id()));
            }
        }
        return flags;
    }

    private static String computeId(ComputeResult figure) {
        return figure.kind() + "-" + figure.elementType().toLowerCase(Locale.ROOT) + "-" + figure.threads() + "t"
                + (figure.matrixOrder() > 0 ? "-n" + figure.matrixOrder() : "")
                + (figure.shape() != null ? "-" + figure.shape().toString().replace(':', '-') : "");
    }

    /** Triad at DRAM on doubles, by team size, where more than one team size was measured. */
    static List<ScalingCurve> scaling(List<BandwidthEntry> bandwidth) {
        Map<Integer, BandwidthEntry> byThreads = new TreeMap<>();
        for (BandwidthEntry entry : bandwidth) {
            if (MemoryCeilingRule.isScalingPoint(entry)) {
                byThreads.putIfAbsent(entry.threads(), entry);
            }
        }
        if (byThreads.size() < 2) {
            return List.of();
        }
        List<ScalingCurve.Point> points = byThreads.values().stream()
                .map(e -> new ScalingCurve.Point(e.threads(), e.streamBytesPerSecond().typical(), e.id())).toList();
        return List.of(new ScalingCurve("triad", "double", MemoryLevel.DRAM, "all", points));
    }

    private Nominal nominal(List<Device> devices) {
        List<String> memoryDevices = devices.stream().filter(d -> d.id().equals(CPU) || !d.unifiedMemoryWith().isEmpty())
                .map(Device::id).toList();
        String platformId = platform.map(PlatformSpec::id).orElse(null);
        String platformName = platform.map(PlatformSpec::name).orElse(null);
        List<Nominal.MemoryBandwidth> memory = new ArrayList<>();
        if (nominal.bytesPerSecond() != null) {
            memory.add(Nominal.MemoryBandwidth.known(memoryDevices, nominal.bytesPerSecond(), nominal.provenance()));
        } else {
            memory.add(Nominal.MemoryBandwidth.unknown(List.of(CPU), nominal.unknownReason()));
        }
        List<Nominal.Compute> computes = new ArrayList<>();
        platform.ifPresent(spec -> {
            for (DeviceSpec device : spec.devices()) {
                String id = device.kind() == membound.vocabulary.DeviceKind.GPU ? GPU : CPU;
                if (devices.stream().noneMatch(d -> d.id().equals(id))) {
                    continue;
                }
                device.densePeakFlopsPerSecond().forEach((precision, figure) -> computes.add(Nominal.Compute.known(id,
                        precision, false, figure.value(),
                        Provenance.datasheet(figure.source()))));
                device.sparsePeakFlopsPerSecond().forEach((precision, figure) -> computes.add(Nominal.Compute.known(id,
                        precision, true, figure.value(),
                        Provenance.datasheet(figure.source()))));
            }
        });
        return new Nominal(platformId, platformName, memory, computes);
    }

    private String cpuName() {
        String model = host.cpu().modelName();
        return model == null || model.isBlank() ? host.cpu().architecture() + " cpu" : model;
    }

    private Device.Memory memory() {
        if (host.memoryBytes() <= 0) {
            return new Device.Memory(null, null, null);
        }
        return new Device.Memory(host.memoryBytes(), null, new Provenance(membound.profile.ProvenanceKind.MEASURED,
                "/proc/meminfo MemTotal", "membound", null, null, null, new TreeMap<>()));
    }

    private Map<String, String> settings(RunResult result) {
        Map<String, String> settings = new TreeMap<>(runSettings);
        for (String key : result.getParams().getParamsKeys()) {
            settings.put("param." + key, result.getParams().getParam(key));
        }
        String cpus = CpuBinding.jvmArgument(result.getParams().getJvmArgs(), CpuBinding.CPUS_PROPERTY);
        if (cpus != null) {
            settings.put("placement.cpus", cpus);
        }
        return settings;
    }

    /** Flags a figure whose recorded rates vary more than the threshold (the CV the profile itself keeps). */
    private static Quality flagIfNoisy(Quality quality, String id, Distribution rates) {
        return flagIfNoisy(quality, CPU, id, rates);
    }

    private static Quality flagIfNoisy(Quality quality, String deviceId, String id, Distribution rates) {
        Double coefficientOfVariation = rates.coefficientOfVariation();
        if (coefficientOfVariation == null || coefficientOfVariation <= NOISY_COEFFICIENT_OF_VARIATION) {
            return quality;
        }
        return quality.with(new Quality.Flag("noisy", membound.benchmarks.results.RunFlags.noisyMessage(
                coefficientOfVariation, rates.samples()), deviceId, id));
    }
}
