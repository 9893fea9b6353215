package membound.hardware.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import membound.vocabulary.BadInputException;

/**
 * Which cpus are online and where they sit, from sysfs {@code cpu*&#47;topology} with cpuinfo's
 * {@code physical id} and {@code core id} where sysfs has none, and how many of them the JVM may use.
 */
final class TopologyReader {

    static final String CPU_DIR = "sys/devices/system/cpu";

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    TopologyReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    /** Online cpus: sysfs {@code online}, else cpuinfo, else the cpu directories, else the JVM's count. */
    List<Integer> onlineCpus(ProcessorBlocks processors) {
        Map<Integer, Map<String, String>> byCpu = processors.byCpu();
        List<Integer> cpus = List.of();
        Optional<String> online = files.readTrimmed(CPU_DIR + "/online");
        if (online.isPresent()) {
            try {
                cpus = CpuList.parse(online.get());
            } catch (IllegalArgumentException e) {
                warnings.add(CPU_DIR + "/online is not a cpu list (" + e.getMessage() + "); using cpuinfo");
            }
        }
        if (cpus.isEmpty() && !byCpu.isEmpty()) {
            cpus = List.copyOf(byCpu.keySet());
        }
        if (cpus.isEmpty()) {
            cpus = files.numbered(CPU_DIR, "cpu").stream()
                    .map(p -> (int) SystemFiles.trailingNumber(p)).toList();
        }
        if (cpus.isEmpty() && files.java().availableProcessors() > 0) {
            List<Integer> numbered = new ArrayList<>();
            for (int i = 0; i < files.java().availableProcessors(); i++) {
                numbered.add(i);
            }
            cpus = numbered;
            warnings.add("cpus counted by the JVM only (no cpuinfo or sysfs): topology unknown");
        }
        if (cpus.isEmpty()) {
            throw new BadInputException("host must have at least one cpu in " + CpuIdentityReader.CPUINFO + ", "
                    + CPU_DIR + " or the JVM: cpus=0 (root " + files.root() + ")");
        }
        if (!byCpu.isEmpty() && !byCpu.keySet().containsAll(cpus)) {
            List<Integer> missing = cpus.stream().filter(c -> !byCpu.containsKey(c)).toList();
            warnings.add(CpuIdentityReader.CPUINFO + " lists " + byCpu.size() + " processors but " + cpus.size()
                    + " cpus are online; cpus " + CpuList.format(missing) + " are missing (truncated file?)");
        }
        return cpus;
    }

    /** The package and core of each of these cpus. */
    Topology topology(List<Integer> cpus, ProcessorBlocks processors) {
        Map<Integer, Integer> packages = packages(cpus, processors);
        return new Topology(cpus, packages, coreThreads(cpus, processors, packages));
    }

    private Map<Integer, Integer> packages(List<Integer> cpus, ProcessorBlocks processors) {
        Map<Integer, Integer> packages = new TreeMap<>();
        for (int cpu : cpus) {
            String base = CPU_DIR + "/cpu" + cpu + "/topology/";
            Optional<String> id = files.readTrimmed(base + "physical_package_id")
                    .or(() -> files.readTrimmed(base + "package_id"))
                    .or(() -> Optional.ofNullable(processors.field(cpu, "physical id")));
            packages.put(cpu, id.flatMap(FileNumbers::parseInt).filter(v -> v >= 0).orElse(0));
        }
        return packages;
    }

    /** For each cpu, the hardware threads of its core (itself alone when nothing says otherwise). */
    private Map<Integer, Set<Integer>> coreThreads(List<Integer> cpus, ProcessorBlocks processors,
                                                   Map<Integer, Integer> packages) {
        Map<Integer, Set<Integer>> threads = new TreeMap<>();
        Map<List<Integer>, Set<Integer>> byCoreId = new HashMap<>();
        for (int cpu : cpus) {
            Optional<String> list = files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/topology/core_cpus_list")
                    .or(() -> files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/topology/thread_siblings_list"));
            if (list.isPresent()) {
                try {
                    Set<Integer> set = new TreeSet<>(CpuList.parse(list.get()));
                    set.add(cpu);
                    threads.put(cpu, set);
                    continue;
                } catch (IllegalArgumentException e) {
                    warnings.add("cpu " + cpu + " topology/core_cpus_list: " + e.getMessage());
                }
            }
            Optional<Integer> coreId = Optional.ofNullable(processors.field(cpu, "core id"))
                    .flatMap(FileNumbers::parseInt);
            if (coreId.isPresent()) {
                Set<Integer> set = byCoreId.computeIfAbsent(List.of(packages.get(cpu), coreId.get()),
                        k -> new TreeSet<>());
                set.add(cpu);
                threads.put(cpu, set);
            } else {
                threads.put(cpu, new TreeSet<>(Set.of(cpu)));
            }
        }
        return threads;
    }

    /** Warns where an affinity mask or container limit gives the JVM fewer cpus than are online. */
    void checkJvmCpus(List<Integer> cpus) {
        int available = files.java().availableProcessors();
        if (available > 0 && available < cpus.size()) {
            warnings.add("the JVM may use " + available + " of the " + cpus.size()
                    + " online cpus (affinity mask or container limit): thread counts above "
                    + available + " share cpus");
        }
    }
}
