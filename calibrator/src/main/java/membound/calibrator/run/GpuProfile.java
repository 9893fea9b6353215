package membound.calibrator.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import membound.benchmarks.gpu.GpuCopyResult;
import membound.benchmarks.gpu.GpuGemmResult;
import membound.benchmarks.gpu.GpuProperties;
import membound.benchmarks.gpu.GpuRun;
import membound.benchmarks.gpu.GpuSharingResult;
import membound.benchmarks.gpu.GpuStreamResult;
import membound.calibrator.ceiling.ComputeCeilingRule;
import membound.calibrator.ceiling.MemoryCeilingRule;
import membound.hardware.catalog.LinkSpec;
import membound.hardware.catalog.PlatformSpec;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.LatencyEntry;
import membound.profile.LaunchEntry;
import membound.profile.Link;
import membound.profile.Provenance;
import membound.profile.SharingEntry;
import membound.profile.ProvenanceKind;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Implementation;
import membound.vocabulary.LinkKind;

/**
 * The profile's {@code gpu} device from a GPU suite run: a bandwidth entry per kernel, element type and working set
 * (STREAM bytes; every pass's rate kept as a distribution), the ceilings chosen from them by {@link CeilingRule},
 * and the pinned copies as the host-device links. Every figure's provenance names the kernel and carries the
 * device's attributes and the driver's version.
 */
final class GpuProfile {

    /** The working set of Triad on memory the CPU allocated (CudaGpuSuite.HOST_PAGEABLE). */
    static final String HOST_PAGEABLE = "host-pageable";

    private GpuProfile() {
    }

    static Device device(GpuRun run, boolean unified, Map<String, String> runSettings) {
        Map<String, String> settings = settings(run, runSettings);
        List<BandwidthEntry> bandwidth = new ArrayList<>();
        for (GpuStreamResult result : run.stream()) {
            bandwidth.add(bandwidthEntry(result, settings));
        }
        GpuProperties properties = run.device();
        Device.Memory memory = new Device.Memory(properties.memoryBytes(), null,
                new Provenance(ProvenanceKind.MEASURED, "CUDA driver cuDeviceTotalMem", "membound", null, null, null,
                        new TreeMap<>()));
        List<ComputeEntry> compute = new ArrayList<>();
        for (GpuGemmResult result : run.gemm()) {
            compute.add(computeEntry(result, settings, run.gemmLibrary()));
        }
        return new Device(ProfileBuilder.GPU, DeviceKind.GPU, properties.name(), memory,
                unified ? List.of(ProfileBuilder.CPU) : List.of(), bandwidth, MemoryCeilingRule.ceilings(bandwidth), List.of(),
                List.of(), compute, ComputeCeilingRule.ceilings(compute), List.of(), List.of(), launch(run, settings),
                sharing(run, settings), null);
    }

    /** The sharing curve's points, each with every sample's rate. */
    static List<SharingEntry> sharing(GpuRun run, Map<String, String> settings) {
        List<SharingEntry> entries = new ArrayList<>();
        for (GpuSharingResult point : run.sharing()) {
            Map<String, String> pointSettings = new TreeMap<>(settings);
            pointSettings.put("sharing.cpuArrayBytesPerThread", Long.toString(CPU_SLICE_ARRAY_BYTES));
            entries.add(new SharingEntry(point.measured(), point.kernel().name().toLowerCase(Locale.ROOT), "double",
                    point.cpuThreadsStreaming(), point.gpuStreaming(),
                    Distribution.ofDurationHistogram(point.bytesPerSample(), point.passTimes().histogram()),
                    Provenance.measured(point.measured().equals("gpu")
                            ? "GpuSuite Triad (PTX, CUDA events) while " + point.cpuThreadsStreaming()
                                    + " CPU threads stream Triad"
                            : "CPU Triad on " + point.cpuThreadsStreaming() + " threads (slowest thread per sample) "
                                    + "while the GPU streams Triad", null, pointSettings)));
        }
        return entries;
    }

    /** Bytes of each of a sharing-curve CPU thread's arrays (the GPU suite's CudaGpuSuite.CPU_SLICE_ARRAY_BYTES). */
    static final long CPU_SLICE_ARRAY_BYTES = 32L << 20;

    /** The empty kernel's launch + synchronise and back-to-back launch interval, percentiles of every sample. */
    static LaunchEntry launch(GpuRun run, Map<String, String> settings) {
        Map<String, String> launchSettings = new TreeMap<>(settings);
        launchSettings.put("gpu.launches", Integer.toString(run.plan().launches()));
        return new LaunchEntry(nanos(run.launchSync()), nanos(run.launchInterval()),
                Provenance.measured("GpuSuite empty kernel: cuLaunchKernel + cuCtxSynchronize, and cuLaunchKernel back "
                        + "to back (host clock)", null, launchSettings));
    }

    private static LatencyEntry.Nanos nanos(membound.benchmarks.results.PassTimes times) {
        return new LatencyEntry.Nanos(times.percentileNanos(50), times.percentileNanos(90), times.percentileNanos(99),
                times.meanNanos(), times.count());
    }

    /**
     * A cuBLASLt GEMM: a square one is the precision's {@code gemm} ceiling at its order, one of the step's shapes a
     * {@code product} entry; FLOP/s of every kept sample, with the library and the algorithm's workspace.
     */
    static ComputeEntry computeEntry(GpuGemmResult result, Map<String, String> settings, String library) {
        Map<String, String> entrySettings = new TreeMap<>(settings);
        entrySettings.put("gpu.cublasLt", library == null ? "unknown" : library);
        entrySettings.put("gpu.gemm.callsPerSample", Integer.toString(result.launchesPerSample()));
        entrySettings.put("gpu.gemm.workspaceBytes", Long.toString(result.workspaceBytes()));
        entrySettings.put("gpu.gemm.accumulate", "fp32");
        String precision = result.precision().label();
        String id = result.square() ? "gpu-gemm-" + precision + "-n" + result.shape().m()
                : "gpu-product-" + precision + "-" + result.shape().toString().replace(':', '-');
        return new ComputeEntry(id, result.square() ? ComputeEntry.Kind.GEMM : ComputeEntry.Kind.PRODUCT,
                result.precision(), null, result.square() ? (long) result.shape().m() : null,
                result.square() ? null : result.shape(),
                Distribution.ofDurationHistogram(result.flopsPerPass(), result.passTimes().histogram()),
                Provenance.measured("GpuSuite cublasLtMatmul " + precision + " " + result.shape() + " (CUDA events, "
                        + "checked at " + CHECKED_ENTRIES + " entries)", null, entrySettings));
    }

    /** The provenance setting of a GEMM through cuBLASLt, and how many entries of each output are checked. */
    static final String CUBLASLT = "cublaslt";
    static final int CHECKED_ENTRIES = 64;

    /** The pinned copies, as links from the CPU to the GPU and back, of the platform's kind (PCIe where unknown). */
    static List<Link> links(GpuRun run, Optional<PlatformSpec> platform, Map<String, String> runSettings) {
        Map<String, String> settings = settings(run, runSettings);
        LinkKind kind = platform.flatMap(spec -> spec.links().stream().filter(GpuProfile::joinsHostAndGpu)
                .map(LinkSpec::kind).findFirst()).orElse(LinkKind.PCIE);
        List<Link> links = new ArrayList<>();
        for (GpuCopyResult copy : run.copies()) {
            Map<String, String> copySettings = new TreeMap<>(settings);
            copySettings.put("gpu.copyBytes", Long.toString(copy.bytes()));
            boolean toDevice = copy.toDevice();
            links.add(new Link("gpu-" + copy.direction(), toDevice ? ProfileBuilder.CPU : ProfileBuilder.GPU,
                    toDevice ? ProfileBuilder.GPU : ProfileBuilder.CPU, kind,
                    Distribution.ofDurationHistogram(copy.bytes(), copy.passTimes().histogram()), null, List.of(),
                    Provenance.measured("GpuSuite pinned " + (toDevice ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync"),
                            null, copySettings)));
        }
        return links;
    }

    /** A catalog link between the GPU and the host ({@code cpu} or {@code host}), not GPU to GPU or network. */
    private static boolean joinsHostAndGpu(LinkSpec link) {
        java.util.Set<String> ends = java.util.Set.of(link.from(), link.to());
        return ends.contains(ProfileBuilder.GPU) && (ends.contains(ProfileBuilder.CPU) || ends.contains("host"));
    }

    private static BandwidthEntry bandwidthEntry(GpuStreamResult result, Map<String, String> settings) {
        String kernel = result.kernel().name().toLowerCase(Locale.ROOT);
        String type = result.elementType().javaName();
        String label = result.workingSet().label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "");
        Map<String, String> entrySettings = new TreeMap<>(settings);
        Implementation implementation = Implementation.PTX;
        if (result.workingSet().label().equals(HOST_PAGEABLE)) {
            // Memory the CPU allocated: a figure of its own, not the device memory's ceiling.
            implementation = Implementation.PTX_HOST_MEMORY;
            entrySettings.put("gpu.memory", "cpu-allocated pageable (malloc), first touched by the CPU");
        }
        entrySettings.put("gpu.arrayBytes", Long.toString(result.workingSet().arrayBytes()));
        entrySettings.put("gpu.grid", result.grid() + "x" + result.threads());
        entrySettings.put("gpu.launchesPerSample", Integer.toString(result.launchesPerSample()));
        return new BandwidthEntry(String.join("-", "gpu", kernel, type, label), kernel,
                result.kernel().pattern().orElse(null), result.kernel().pattern().isPresent()
                && !result.kernel().measuresPattern(), type, implementation, null, null,
                result.footprintBytes(), result.workingSet().level(),
                Distribution.ofDurationHistogram(result.streamBytesPerPass(), result.passTimes().histogram()), null,
                Provenance.measured("GpuSuite " + result.kernel().label() + " (PTX, CUDA events)", null,
                        entrySettings));
    }

    /** The run's settings plus what the device and the driver said: the provenance of every GPU figure. */
    private static Map<String, String> settings(GpuRun run, Map<String, String> runSettings) {
        GpuProperties d = run.device();
        Map<String, String> settings = new TreeMap<>(runSettings);
        settings.put("gpu.name", d.name());
        settings.put("gpu.computeCapability", d.computeCapability());
        settings.put("gpu.multiprocessors", Integer.toString(d.multiprocessors()));
        settings.put("gpu.l2Bytes", Long.toString(d.l2Bytes()));
        settings.put("gpu.memoryBusWidthBits", Integer.toString(d.memoryBusWidthBits()));
        settings.put("gpu.memoryClockKhz", Long.toString(d.memoryClockKhz()));
        settings.put("gpu.smClockKhz", Long.toString(d.smClockKhz()));
        settings.put("gpu.integrated", Boolean.toString(d.integrated()));
        settings.put("gpu.pageableMemoryAccess", Boolean.toString(d.pageableMemoryAccess()));
        settings.put("gpu.pageableUsesHostPageTables", Boolean.toString(d.pageableUsesHostPageTables()));
        settings.put("gpu.driverCudaVersion", d.driverCudaVersionText());
        settings.put("gpu.passes", Integer.toString(run.plan().passes()));
        settings.put("gpu.warmupPasses", Integer.toString(run.plan().warmupPasses()));
        return settings;
    }
}
