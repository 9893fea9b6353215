package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoreTypeReaderTest {

    @Test
    void shouldTellIntelPCoresFromECoresByTheirPmuDirectories(@TempDir Path root) {
        write(root, "sys/devices/cpu_core/cpus", "0-3\n");
        write(root, "sys/devices/cpu_atom/cpus", "4-7\n");
        List<Integer> cpus = IntStream.range(0, 8).boxed().toList();
        Map<Integer, Set<Integer>> alone = new TreeMap<>();
        cpus.forEach(c -> alone.put(c, Set.of(c)));
        Map<Integer, Integer> packages = new TreeMap<>();
        cpus.forEach(c -> packages.put(c, 0));
        List<String> warnings = new ArrayList<>();

        List<CoreType> types = new CoreTypeReader(SystemFiles.fixture(root), warnings).coreTypes(
                new Topology(cpus, packages, alone), new ProcessorBlocks(List.of()), Map.of(), CpuInfo.X86_64,
                List.of());

        assertEquals(List.of("P-core", "E-core"), types.stream().map(CoreType::name).toList());
        assertEquals(List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7)), types.stream().map(CoreType::cpus).toList());
        assertEquals(List.of(), warnings);
    }
}
