package membound.hardware.host;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import membound.vocabulary.BadInputException;

/**
 * The machine the suite runs on, as {@link HostDetector} found it. Every cache says where its size came
 * from; whatever could not be found is named in {@code warnings} rather than guessed.
 *
 * @param logicalCpus         online logical cpus (hardware threads)
 * @param memoryBytes         total memory ({@code MemTotal}), 0 when it could not be read (see warnings)
 * @param os                  operating system name and kernel version
 * @param jdk                 the running JDK's version and vendor
 * @param vectorBitWidth      the widest SIMD register the cpus offer: x86 512 (AVX-512F), 256 (AVX2) or
 *                            128 (SSE2); aarch64 the SVE default vector length, else 128 (Advanced SIMD)
 * @param transparentHugePages the THP mode in force ({@code always}, {@code madvise}, {@code never}), or
 *                            {@code unknown}
 * @param platform            the known platform recognised, with its evidence
 * @param warnings            what could not be found or may bias a measurement, one line each
 */
public record Host(String hostname, CpuInfo cpu, int logicalCpus, List<CoreType> coreTypes,
                   List<CpuCluster> clusters, List<Cache> caches, long memoryBytes, int numaNodes, String os,
                   String jdk, int vectorBitWidth, String transparentHugePages, Dmi dmi,
                   Optional<PlatformMatch> platform, List<String> warnings) {

    /**
     * The warning of a host whose transparent huge pages are {@code madvise}: a JVM started without
     * {@code -XX:+UseTransparentHugePages} gets none. A run whose forks had the flag has nothing to warn about.
     */
    public static final String THP_MADVISE_WARNING = "transparent huge pages are 'madvise': the JVM heap gets huge "
            + "pages only when it runs with -XX:+UseTransparentHugePages";

    public Host {
        hostname = CpuInfo.requireText("hostname", hostname);
        if (cpu == null) {
            throw new BadInputException("cpu must be given: cpu=null");
        }
        if (logicalCpus < 1) {
            throw new BadInputException("logicalCpus must be at least 1: logicalCpus=" + logicalCpus);
        }
        coreTypes = List.copyOf(coreTypes);
        clusters = List.copyOf(clusters);
        caches = List.copyOf(caches);
        if (memoryBytes < 0) {
            throw new BadInputException("memoryBytes must not be negative: memoryBytes=" + memoryBytes);
        }
        if (numaNodes < 1) {
            throw new BadInputException("numaNodes must be at least 1: numaNodes=" + numaNodes);
        }
        os = CpuInfo.requireText("os", os);
        jdk = CpuInfo.requireText("jdk", jdk);
        if (vectorBitWidth < 64 || Integer.bitCount(vectorBitWidth) != 1) {
            throw new BadInputException("vectorBitWidth must be a power of two of at least 64: vectorBitWidth="
                    + vectorBitWidth);
        }
        transparentHugePages = CpuInfo.requireText("transparentHugePages", transparentHugePages);
        dmi = dmi == null ? Dmi.NONE : dmi;
        platform = platform == null ? Optional.empty() : platform;
        warnings = List.copyOf(warnings);
    }

    /** The same host recognised as another platform: what {@code --platform NAME} does. */
    public Host withPlatform(PlatformMatch match) {
        return new Host(hostname, cpu, logicalCpus, coreTypes, clusters, caches, memoryBytes, numaNodes, os, jdk,
                vectorBitWidth, transparentHugePages, dmi, Optional.of(match), warnings);
    }

    /** More than one kind of core, as on a DGX Spark. */
    public boolean heterogeneous() {
        return coreTypes.size() > 1;
    }

    /** The cache levels that hold data, lowest first: {@code [1, 2, 3]} on most machines. */
    public List<Integer> dataCacheLevels() {
        return caches.stream().filter(c -> c.type().holdsData()).map(Cache::level).distinct().sorted().toList();
    }

    /**
     * The last-level cache summed over its distinct instances (8 MiB + 16 MiB on a DGX Spark), 0 when no
     * cache is known. STREAM's rule: each array of a DRAM measurement is at least four times this.
     */
    public long lastLevelCacheTotalBytes() {
        List<Integer> levels = dataCacheLevels();
        if (levels.isEmpty()) {
            return 0;
        }
        int last = levels.get(levels.size() - 1);
        return caches.stream().filter(c -> c.level() == last && c.type().holdsData()).mapToLong(Cache::totalBytes).sum();
    }

    /**
     * One core's share of the data cache at a level: an instance's size over the cpus sharing it. Where core
     * types differ this is the smallest share, so a working set sized by it fits on every core.
     */
    public OptionalLong cacheBytesPerCore(int level) {
        return caches.stream().filter(c -> c.level() == level && c.type().holdsData())
                .mapToLong(Cache::bytesPerCpu).min();
    }

    /** One cpu's share of the data cache at a level, for placing work on a chosen core type. */
    public OptionalLong cacheBytesPerCore(int level, int cpuId) {
        return caches.stream()
                .filter(c -> c.level() == level && c.type().holdsData() && c.sharedCpus().contains(cpuId))
                .mapToLong(Cache::bytesPerCpu).min();
    }

    /** The core type of a cpu, if the cpu is known. */
    public Optional<CoreType> coreTypeOf(int cpuId) {
        return coreTypes.stream().filter(t -> t.cpus().contains(cpuId)).findFirst();
    }
}
