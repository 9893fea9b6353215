package membound.hardware.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * The kinds of core: on Arm by implementer and part, on x86 by Intel's hybrid PMU directories
 * ({@code cpu_core}, {@code cpu_atom}) or else one kind named by cpuinfo; each with its per-core caches and
 * sysfs {@code cpu_capacity}.
 */
final class CoreTypeReader {

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    CoreTypeReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    List<CoreType> coreTypes(Topology topology, ProcessorBlocks processors, Map<Integer, ArmCoreId> armIds,
                             String architecture, List<CacheInstance> instances) {
        Map<String, List<Integer>> cpusByType = new LinkedHashMap<>();
        Map<String, ArmCoreId> idByType = new HashMap<>();
        if (CpuInfo.AARCH64.equals(architecture) && !armIds.isEmpty()) {
            for (int cpu : topology.cpus()) {
                ArmCoreId id = armIds.get(cpu);
                String name = id == null ? "unknown" : id.name();
                cpusByType.computeIfAbsent(name, k -> new ArrayList<>()).add(cpu);
                if (id != null) {
                    idByType.put(name, id);
                }
            }
        } else {
            List<Integer> performance = cpuListFile("sys/devices/cpu_core/cpus");
            List<Integer> efficient = cpuListFile("sys/devices/cpu_atom/cpus");
            String model = processors.byCpu().values().stream().map(p -> p.get("model name")).filter(v -> v != null)
                    .findFirst().orElse(architecture + " core");
            for (int cpu : topology.cpus()) {
                // Intel hybrid parts list their P- and E-cores under these PMU directories.
                String name = performance.contains(cpu) && !efficient.isEmpty() ? "P-core"
                        : efficient.contains(cpu) ? "E-core" : model;
                cpusByType.computeIfAbsent(name, k -> new ArrayList<>()).add(cpu);
            }
        }
        if (cpusByType.containsKey("unknown")) {
            warnings.add("core type unknown for cpus " + CpuList.format(cpusByType.get("unknown")));
        }
        List<CoreType> types = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : cpusByType.entrySet()) {
            Set<Integer> typeCpus = new TreeSet<>(e.getValue());
            List<Cache> perCore = CacheInstance.group(instances.stream()
                    .filter(i -> typeCpus.containsAll(i.cpus()) && topology.withinOneCore(i)).toList());
            types.add(new CoreType(e.getKey(), Optional.ofNullable(idByType.get(e.getKey())), e.getValue(),
                    perCore, capacity(e.getValue())));
        }
        return types;
    }

    private List<Integer> cpuListFile(String path) {
        try {
            return files.readTrimmed(path).map(CpuList::parse).orElse(List.of());
        } catch (IllegalArgumentException e) {
            warnings.add(path + ": " + e.getMessage());
            return List.of();
        }
    }

    /** The cpu_capacity shared by all these cpus, if the kernel reports one. */
    private OptionalInt capacity(List<Integer> cpus) {
        Set<Integer> values = new TreeSet<>();
        for (int cpu : cpus) {
            Optional<Integer> c = files.readTrimmed(TopologyReader.CPU_DIR + "/cpu" + cpu + "/cpu_capacity")
                    .flatMap(FileNumbers::parseInt);
            if (c.isEmpty()) {
                return OptionalInt.empty();
            }
            values.add(c.get());
        }
        return values.size() == 1 ? OptionalInt.of(values.iterator().next()) : OptionalInt.empty();
    }
}
