package membound.hardware.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cpu clusters, each with the caches its cores share: from sysfs {@code topology/cluster_id}, else the
 * sharing of the last-level cache, else one per package.
 */
final class ClusterReader {

    // Kernel's "no cluster" values for topology/cluster_id: -1 printed signed or as u16/u32.
    private static final Set<Long> NO_CLUSTER = Set.of(-1L, 65535L, 4294967295L);

    private final SystemFiles files;

    ClusterReader(SystemFiles files) {
        this.files = files;
    }

    List<CpuCluster> clusters(Topology topology, List<CacheInstance> instances) {
        List<Set<Integer>> groups = sysfsClusters(topology);
        String basis = "sysfs cluster_id";
        if (groups.isEmpty()) {
            groups = lastLevelSharing(instances);
            basis = "shared last-level cache";
        }
        if (groups.isEmpty()) {
            groups = new ArrayList<>(new LinkedHashSet<>(topology.packageGroups().values()));
            basis = "package";
        }
        groups.sort(Comparator.comparing(g -> g.iterator().next()));
        List<CpuCluster> clusters = new ArrayList<>();
        for (Set<Integer> group : groups) {
            List<Cache> shared = CacheInstance.group(instances.stream()
                    .filter(i -> group.containsAll(i.cpus()) && !topology.withinOneCore(i)).toList());
            clusters.add(new CpuCluster(clusters.size(), List.copyOf(group), shared, basis));
        }
        return clusters;
    }

    /** Clusters from topology/cluster_id, when every cpu has a real id and some cluster spans cores. */
    private List<Set<Integer>> sysfsClusters(Topology topology) {
        Map<List<Long>, Set<Integer>> byId = new LinkedHashMap<>();
        for (int cpu : topology.cpus()) {
            Optional<Long> id = files.readTrimmed(TopologyReader.CPU_DIR + "/cpu" + cpu + "/topology/cluster_id")
                    .flatMap(FileNumbers::parseLong).filter(v -> !NO_CLUSTER.contains(v) && v >= 0);
            if (id.isEmpty()) {
                return List.of();
            }
            byId.computeIfAbsent(List.of((long) topology.packages().get(cpu), id.get()), k -> new TreeSet<>())
                    .add(cpu);
        }
        boolean spansCores = byId.values().stream()
                .anyMatch(g -> !topology.coreThreads().getOrDefault(g.iterator().next(), Set.of()).containsAll(g));
        return spansCores ? new ArrayList<>(byId.values()) : List.of();
    }

    /** Groups of cpus sharing one instance of the last data level, when sysfs reports the sharing. */
    private static List<Set<Integer>> lastLevelSharing(List<CacheInstance> instances) {
        List<CacheInstance> sysfs = instances.stream()
                .filter(i -> i.source().equals("sysfs") && i.type().holdsData()).toList();
        int last = sysfs.stream().mapToInt(CacheInstance::level).max().orElse(0);
        List<Set<Integer>> groups = new ArrayList<>();
        for (CacheInstance i : sysfs) {
            if (i.level() == last && i.cpus().size() > 1) {
                groups.add(new TreeSet<>(i.cpus()));
            }
        }
        return groups;
    }
}
