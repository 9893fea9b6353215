package membound.profile;

import java.util.List;

/**
 * The machine a profile was taken on, as detected. Fields a detector could not determine are absent
 * rather than guessed. The calibrator maps its host detection into this plain record so that readers of
 * a profile need nothing but this module.
 *
 * @param hostname       the node's name, as {@code hostname} prints it
 * @param cpu            processor identification and core types; absent where the profile describes no host, as
 *                       for a machine imported from another estimator's hardware file (it names no processor)
 * @param caches         one entry per distinct cache (level, type, core type)
 * @param memoryBytes    total memory the operating system reports, if known
 * @param numaNodes      NUMA nodes, if known
 * @param os             operating system name and kernel version, if known ("Linux 6.11.0-1016-nvidia")
 * @param jdk            the JDK that ran the measurement, if any ("Eclipse Adoptium 25+36")
 * @param vectorBitWidth the Vector API's preferred species width in bits, if known
 * @param platform       a recognised platform (DGX Spark, ...), absent when none was recognised
 */
public record Host(
        String hostname,
        Cpu cpu,
        List<Cache> caches,
        Long memoryBytes,
        Integer numaNodes,
        String os,
        String jdk,
        Integer vectorBitWidth,
        Platform platform) {

    public Host {
        Checks.text("host.hostname", hostname);
        caches = Checks.list("host.caches", caches);
        Checks.optionalPositive("host.memoryBytes", memoryBytes);
        Checks.optionalPositive("host.numaNodes", numaNodes);
        Checks.optionalText("host.os", os);
        Checks.optionalText("host.jdk", jdk);
        Checks.optionalPositive("host.vectorBitWidth", vectorBitWidth);
    }

    /**
     * The last-level cache: the largest total size (size × instances) among data and unified caches of the
     * highest level; absent when no cache is known.
     */
    public java.util.Optional<Cache> lastLevelCache() {
        return caches.stream()
                .filter(c -> !"instruction".equals(c.type()))
                .max(java.util.Comparator.comparingInt(Cache::level)
                        .thenComparingLong(Cache::totalBytes));
    }

    /**
     * @param vendor        "ARM", "AuthenticAMD", "GenuineIntel", if known
     * @param model         the model name ("AMD EPYC 7B13"; on Arm the core names), if known
     * @param architecture  {@code os.arch}: "aarch64", "amd64"
     * @param logicalCpus   logical CPUs the OS offers
     * @param coreTypes     one entry per core type; a single entry on a homogeneous CPU, empty if unknown
     */
    public record Cpu(String vendor, String model, String architecture, int logicalCpus, List<CoreType> coreTypes) {
        public Cpu {
            Checks.optionalText("cpu.vendor", vendor);
            Checks.optionalText("cpu.model", model);
            Checks.text("cpu.architecture", architecture);
            Checks.positive("cpu.logicalCpus", logicalCpus);
            coreTypes = Checks.list("cpu.coreTypes", coreTypes);
            Checks.unique("cpu.coreTypes.name", coreTypes, CoreType::name);
        }
    }

    /**
     * @param name  "Cortex-X925", "Cortex-A725", or the model name on a homogeneous CPU
     * @param count cores of this type
     * @param cpus  their logical CPU numbers in Linux list form ("0-9"), if known
     */
    public record CoreType(String name, int count, String cpus) {
        public CoreType {
            Checks.text("coreType.name", name);
            Checks.positive("coreType.count", count);
            Checks.optionalText("coreType.cpus", cpus);
        }
    }

    /**
     * One kind of cache.
     *
     * @param level      1, 2, 3, or 4 for a memory-side (system-level) cache
     * @param type       "data", "instruction" or "unified"
     * @param sizeBytes  the size of one instance
     * @param instances  how many instances the machine has
     * @param sharedCpus logical CPUs that share one instance
     * @param coreType   the core type it belongs to, on a CPU with several; absent otherwise
     * @param source     where the figure came from ("sysfs", "cpuid", "datasheet: Chips and Cheese")
     */
    public record Cache(int level, String type, long sizeBytes, int instances, int sharedCpus, String coreType,
                        String source) {
        public Cache {
            if (level < 1 || level > 4) {
                throw Checks.bad("cache.level", "1, 2, 3 or 4", level);
            }
            if (!"data".equals(type) && !"instruction".equals(type) && !"unified".equals(type)) {
                throw Checks.bad("cache.type", "one of data, instruction, unified", type);
            }
            Checks.positive("cache.sizeBytes", sizeBytes);
            Checks.positive("cache.instances", instances);
            Checks.positive("cache.sharedCpus", sharedCpus);
            Checks.optionalText("cache.coreType", coreType);
            Checks.text("cache.source", source);
        }

        /** Size of all instances together. */
        public long totalBytes() {
            return sizeBytes * instances;
        }
    }

    /**
     * A recognised platform.
     *
     * @param id       catalog id ("dgx-spark")
     * @param name     its name ("NVIDIA DGX Spark")
     * @param evidence what it was recognised by ("DMI product_name=NVIDIA DGX Spark", "--platform dgx-spark")
     */
    public record Platform(String id, String name, List<String> evidence) {
        public Platform {
            Checks.id("platform.id", id);
            Checks.text("platform.name", name);
            evidence = Checks.list("platform.evidence", evidence);
            if (evidence.isEmpty()) {
                throw Checks.bad("platform.evidence", "at least one line (how the platform was recognised)", "[]");
            }
        }
    }
}
