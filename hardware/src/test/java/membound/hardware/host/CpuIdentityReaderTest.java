package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuIdentityReaderTest {

    @Test
    void shouldKeepOnlyTheFlagsEveryCpuHas(@TempDir Path root) {
        // A hybrid part whose second core lacks AVX-512: code may use only what both have.
        write(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 avx2 avx512f\n\n"
                + "processor\t: 1\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 avx2\n");
        List<String> warnings = new ArrayList<>();
        CpuIdentityReader reader = new CpuIdentityReader(SystemFiles.fixture(root), warnings);
        ProcessorBlocks processors = reader.processors();
        String architecture = reader.architecture(processors);
        Set<String> flags = reader.commonFlags(processors, architecture);

        assertEquals(CpuInfo.X86_64, architecture);
        assertEquals(Set.of("fpu", "sse2", "avx2"), flags);
        assertEquals(256, reader.vectorBitWidth(new CpuInfo("GenuineIntel", "hybrid", architecture, flags)));
        assertEquals(List.of(), warnings);
    }
}
