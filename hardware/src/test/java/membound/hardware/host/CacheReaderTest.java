package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheReaderTest {

    private static void index(Path root, int cpu, String sharedCpus) {
        String dir = "sys/devices/system/cpu/cpu" + cpu + "/cache/index0/";
        write(root, dir + "level", "1\n");
        write(root, dir + "type", "Data\n");
        write(root, dir + "size", "32K\n");
        write(root, dir + "shared_cpu_list", sharedCpus + "\n");
    }

    @Test
    void shouldKeepTheFirstOfTwoSysfsInstancesWhoseCpusOverlap(@TempDir Path root) {
        // cpu0 says its L1d serves cpus 0-1, cpu1 that it serves cpu 1 alone: they cannot both be right.
        index(root, 0, "0-1");
        index(root, 1, "1");
        List<String> warnings = new ArrayList<>();
        Topology topology = new Topology(List.of(0, 1), Map.of(0, 0, 1, 0), Map.of(0, Set.of(0), 1, Set.of(1)));

        List<CacheInstance> instances = new CacheReader(SystemFiles.fixture(root), warnings)
                .instances(topology, new ProcessorBlocks(List.of()), "unknown");

        assertEquals(List.of(new CacheInstance(1, CacheType.DATA, 32 * 1024, Set.of(0, 1), "sysfs")), instances);
        assertEquals(List.of("sysfs L1 data cache for cpus 1 overlaps another instance; skipped"), warnings);
    }
}
