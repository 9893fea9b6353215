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

class GetconfCacheReaderTest {

    @Test
    void shouldAssumeL1PerCoreAndL3PerPackageAndSkipASizeThatIsNotANumber(@TempDir Path root) {
        write(root, SystemFiles.GETCONF_FILE, "LEVEL1_ICACHE_SIZE                 32768\n"
                + "LEVEL1_DCACHE_SIZE                 49152\n"
                + "LEVEL2_CACHE_SIZE                  lots\n"
                + "LEVEL3_CACHE_SIZE                  8388608\n"
                + "LEVEL4_CACHE_SIZE                  0\n");
        // Two packages of two single-thread cores.
        Topology topology = new Topology(List.of(0, 1, 2, 3), Map.of(0, 0, 1, 0, 2, 1, 3, 1),
                Map.of(0, Set.of(0), 1, Set.of(1), 2, Set.of(2), 3, Set.of(3)));
        List<String> warnings = new ArrayList<>();

        List<CacheInstance> instances = new GetconfCacheReader(SystemFiles.fixture(root), warnings)
                .instances(topology);

        assertEquals(List.of("L1 data 48.0 KiB x4 (1 cpu each, getconf)",
                        "L1 instruction 32.0 KiB x4 (1 cpu each, getconf)",
                        "L3 unified 8.00 MiB x2 (2 cpus each, getconf)"),
                CacheInstance.group(instances).stream().map(Cache::toString).toList());
        assertEquals(List.of(Set.of(0, 1), Set.of(2, 3)),
                instances.stream().filter(i -> i.level() == 3).map(CacheInstance::cpus).toList());
        assertEquals("getconf LEVEL2 cache size must be a number of bytes: size=lots; skipped", warnings.get(0));
        assertEquals(3, warnings.size(), warnings::toString);
    }
}
