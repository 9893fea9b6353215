package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryReaderTest {

    @Test
    void shouldCountEachNumaNodeDirectoryAndNothingElseThere(@TempDir Path root) throws IOException {
        write(root, "proc/meminfo", "MemTotal:        1048576 kB\nMemFree:          524288 kB\n");
        Files.createDirectories(root.resolve("sys/devices/system/node/node0"));
        Files.createDirectories(root.resolve("sys/devices/system/node/node1"));
        write(root, "sys/devices/system/node/online", "0-1\n");
        write(root, "sys/devices/system/node/possible", "0-1\n");
        List<String> warnings = new ArrayList<>();
        MemoryReader reader = new MemoryReader(SystemFiles.fixture(root), warnings);

        assertEquals(1L << 30, reader.memoryBytes());
        assertEquals(2, reader.numaNodes());
        assertEquals(List.of(), warnings);
    }
}
