package membound.hardware.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import membound.vocabulary.BadInputException;

/**
 * Finds out what machine this is, from the files Linux exposes and what the JVM knows. Each source has its
 * reader: {@link CpuIdentityReader} (cpuinfo), {@link TopologyReader}, {@link CacheReader} (with
 * {@link GetconfCacheReader}), {@link CoreTypeReader}, {@link ClusterReader}, {@link MemoryReader},
 * {@link OsSettingsReader} and {@link SystemIdentityReader}; this class puts their answers together.
 *
 * <p>Cache sizes come from the first source that has them, and each cache records which:
 * <ol>
 *   <li>sysfs {@code /sys/devices/system/cpu/cpu*&#47;cache/index*}: size, level, type and the cpus sharing
 *       each instance, so per-core and per-cluster caches come apart;</li>
 *   <li>{@code getconf -a} (glibc, from CPUID): sizes only, so sharing is assumed (L1 and L2 per core, L3 and
 *       beyond per package) and a warning says so;</li>
 *   <li>{@code /proc/cpuinfo} {@code cache size}: one level only (L2 on AMD, the last level on Intel);</li>
 *   <li>otherwise unknown, with a warning.</li>
 * </ol>
 * A malformed file is either refused with a {@link BadInputException} naming the file and value (a cpuinfo
 * whose processor numbers are not numbers) or recorded in {@link Host#warnings()} and skipped (a cache size
 * that does not parse); detection never guesses silently.
 */
public final class HostDetector {

    private HostDetector() {
    }

    /** The machine this JVM runs on. */
    public static Host detect() {
        return detect(SystemFiles.live());
    }

    /** The machine the given files describe; what {@link #detect()} does over {@link SystemFiles#live()}. */
    public static Host detect(SystemFiles files) {
        // One list for all readers, in the order they run: the order the warnings are printed in.
        List<String> warnings = new ArrayList<>();
        CpuIdentityReader identity = new CpuIdentityReader(files, warnings);
        TopologyReader topologyReader = new TopologyReader(files, warnings);

        ProcessorBlocks processors = identity.processors();
        List<Integer> cpus = topologyReader.onlineCpus(processors);
        String architecture = identity.architecture(processors);
        Set<String> flags = identity.commonFlags(processors, architecture);
        Map<Integer, ArmCoreId> armIds = CpuInfo.AARCH64.equals(architecture) ? identity.armIds(processors)
                : Map.of();
        Topology topology = topologyReader.topology(cpus, processors);
        String vendor = identity.vendor(processors, armIds);

        List<CacheInstance> instances = new CacheReader(files, warnings).instances(topology, processors, vendor);
        List<CoreType> coreTypes = new CoreTypeReader(files, warnings)
                .coreTypes(topology, processors, armIds, architecture, instances);
        List<CpuCluster> clusters = new ClusterReader(files).clusters(topology, instances);
        CpuInfo cpu = new CpuInfo(vendor, identity.modelName(processors, coreTypes), architecture, flags);
        int vectorBits = identity.vectorBitWidth(cpu);

        MemoryReader memory = new MemoryReader(files, warnings);
        long memoryBytes = memory.memoryBytes();
        int numaNodes = memory.numaNodes();
        OsSettingsReader settings = new OsSettingsReader(files, warnings);
        String thp = settings.transparentHugePages();
        settings.checkGovernors(cpus);
        topologyReader.checkJvmCpus(cpus);

        SystemIdentityReader system = new SystemIdentityReader(files);
        Dmi dmi = system.dmi();
        return new Host(system.hostname(), cpu, cpus.size(), coreTypes, clusters, CacheInstance.group(instances),
                memoryBytes, numaNodes, system.os(), system.jdk(), vectorBits, thp, dmi,
                PlatformRecognizer.recognize(dmi, coreTypes, topology.packages()), warnings);
    }
}
