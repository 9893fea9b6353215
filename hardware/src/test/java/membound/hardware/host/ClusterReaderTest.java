package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterReaderTest {

    @Test
    void shouldGroupByTheSharedLastLevelCacheWhereClusterIdSaysNoCluster(@TempDir Path root) {
        for (int cpu = 0; cpu < 4; cpu++) {
            // 65535 is the kernel's "no cluster" printed as an unsigned 16-bit number.
            write(root, "sys/devices/system/cpu/cpu" + cpu + "/topology/cluster_id", "65535\n");
        }
        Topology topology = new Topology(List.of(0, 1, 2, 3), Map.of(0, 0, 1, 0, 2, 0, 3, 0),
                Map.of(0, Set.of(0), 1, Set.of(1), 2, Set.of(2), 3, Set.of(3)));
        List<CacheInstance> instances = List.of(
                new CacheInstance(2, CacheType.UNIFIED, 1 << 20, Set.of(0), "sysfs"),
                new CacheInstance(3, CacheType.UNIFIED, 8 << 20, Set.of(0, 1), "sysfs"),
                new CacheInstance(3, CacheType.UNIFIED, 8 << 20, Set.of(2, 3), "sysfs"));

        List<CpuCluster> clusters = new ClusterReader(SystemFiles.fixture(root)).clusters(topology, instances);

        assertEquals(List.of(List.of(0, 1), List.of(2, 3)), clusters.stream().map(CpuCluster::cpus).toList());
        assertEquals(List.of("shared last-level cache", "shared last-level cache"),
                clusters.stream().map(CpuCluster::basis).toList());
        assertEquals(List.of("L3 unified 8.00 MiB x1 (2 cpus each, sysfs)"),
                clusters.get(1).caches().stream().map(Cache::toString).toList());
    }
}
