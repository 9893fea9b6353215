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

class TopologyReaderTest {

    @Test
    void shouldPairHardwareThreadsByCpuinfoCoreIdWhereSysfsHasNoTopology(@TempDir Path root) {
        StringBuilder cpuinfo = new StringBuilder();
        for (int cpu = 0; cpu < 4; cpu++) {
            cpuinfo.append("processor\t: ").append(cpu).append("\nphysical id\t: 0\ncore id\t\t: ").append(cpu / 2)
                    .append("\n\n");
        }
        write(root, "proc/cpuinfo", cpuinfo.toString());
        write(root, SystemFiles.JAVA_FILE, "availableProcessors=2\n");
        List<String> warnings = new ArrayList<>();
        SystemFiles files = SystemFiles.fixture(root);
        TopologyReader reader = new TopologyReader(files, warnings);
        ProcessorBlocks processors = new CpuIdentityReader(files, warnings).processors();

        List<Integer> cpus = reader.onlineCpus(processors);
        Topology topology = reader.topology(cpus, processors);
        reader.checkJvmCpus(cpus);

        assertEquals(List.of(0, 1, 2, 3), cpus);
        assertEquals(Map.of(0, Set.of(0, 1), 1, Set.of(0, 1), 2, Set.of(2, 3), 3, Set.of(2, 3)),
                topology.coreThreads());
        assertEquals(List.of("the JVM may use 2 of the 4 online cpus (affinity mask or container limit): thread "
                + "counts above 2 share cpus"), warnings);
    }
}
