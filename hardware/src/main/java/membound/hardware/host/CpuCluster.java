package membound.hardware.host;

import java.util.List;

import membound.vocabulary.BadInputException;

/**
 * Cpus that share a cache (usually an L3) and sit together in the topology.
 *
 * @param caches the caches shared by cpus of this cluster (not the per-core ones)
 * @param basis  how the cluster was found: {@code "sysfs cluster_id"}, {@code "shared last-level cache"} or
 *               {@code "package"}
 */
public record CpuCluster(int id, List<Integer> cpus, List<Cache> caches, String basis) {

    public CpuCluster {
        if (id < 0) {
            throw new BadInputException("id must not be negative: id=" + id);
        }
        cpus = List.copyOf(cpus);
        caches = List.copyOf(caches);
        if (cpus.isEmpty()) {
            throw new BadInputException("cpus must not be empty: cpus=" + cpus + ", id=" + id);
        }
        basis = CpuInfo.requireText("basis", basis);
    }
}
