package membound.hardware.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.hardware.catalog.Catalog;

class PlatformRecognitionTest {

    @TempDir
    Path tmp;

    /** A Grace-like tree: Neoverse-V2 cores, 72 per package. */
    private Path grace(int packages) throws IOException {
        Path root = tmp.resolve("grace" + packages);
        StringBuilder cpuinfo = new StringBuilder();
        for (int cpu = 0; cpu < 72 * packages; cpu++) {
            cpuinfo.append("processor\t: ").append(cpu).append("\nFeatures\t: fp asimd sve sve2\n")
                    .append("CPU implementer\t: 0x41\nCPU part\t: 0xd4f\n\n");
            Path topology = root.resolve("sys/devices/system/cpu/cpu" + cpu + "/topology");
            Files.createDirectories(topology);
            Files.writeString(topology.resolve("physical_package_id"), (cpu / 72) + "\n");
        }
        Files.createDirectories(root.resolve("proc/sys/abi"));
        Files.writeString(root.resolve("proc/cpuinfo"), cpuinfo.toString());
        Files.writeString(root.resolve("proc/sys/abi/sve_default_vector_length"), "16\n");
        return root;
    }

    @Test
    void shouldRecogniseOneGraceSocketAsGh200() throws IOException {
        Host host = HostDetector.detect(SystemFiles.fixture(grace(1)));
        assertEquals("gh200", host.platform().orElseThrow().catalogId());
        assertEquals("Neoverse-V2", host.coreTypes().get(0).name());
        assertTrue(host.platform().orElseThrow().evidence().startsWith("CPU part 72x0xd4f Neoverse-V2"));
    }

    @Test
    void shouldRecogniseTwoGraceSocketsAsGraceSuperchip() throws IOException {
        Host host = HostDetector.detect(SystemFiles.fixture(grace(2)));
        assertEquals("grace-superchip", host.platform().orElseThrow().catalogId());
        assertEquals(2, host.clusters().size());
        assertEquals("package", host.clusters().get(0).basis());
    }

    @Test
    void shouldNameOnlyIdsTheCatalogHolds() {
        for (String id : List.of(PlatformRecognizer.DGX_SPARK, PlatformRecognizer.GH200,
                PlatformRecognizer.GRACE_SUPERCHIP)) {
            assertTrue(Catalog.builtIn().find(id).isPresent(), id);
        }
    }

    @Test
    void shouldLetAnOverrideReplaceTheRecognisedPlatform() {
        Host epyc = Fixtures.detect("dev-epyc");
        Host overridden = Catalog.builtIn().withPlatform(epyc, "H100");
        assertEquals("h100-sxm", Catalog.builtIn().match(overridden).orElseThrow().id());
        assertEquals("--platform H100", overridden.platform().orElseThrow().evidence());
    }

    @Test
    void shouldReportTheSparkForPeople() {
        List<String> lines = HostReport.lines(Fixtures.detect("dgx-spark"));
        assertTrue(lines.contains("core type  Cortex-X925 (0x41/0xd85): cpus 5-9,15-19, per core L1d 64.0 KiB, "
                + "L1i 64.0 KiB, L2 2.00 MiB"), lines::toString);
        assertTrue(lines.contains("cluster    1: cpus 10-19, shared L3 16.0 MiB (by sysfs cluster_id)"),
                lines::toString);
    }

    @Test
    void shouldNameArmPartsAndFallBackForUnknownOnes() {
        assertEquals("Cortex-X925", new ArmCoreId(0x41, 0xd85).name());
        assertEquals("Neoverse-N1", new ArmCoreId(0x41, 0xd0c).name());
        assertEquals("ARM part 0xd99", new ArmCoreId(0x41, 0xd99).name());
        assertEquals("implementer 0x99 part 0x001", new ArmCoreId(0x99, 0x001).name());
        assertEquals("0x41/0xd87", ArmCoreId.CORTEX_A725.toString());
    }
}
