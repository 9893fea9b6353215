package membound.hardware.host;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/** Broken system files give a recorded warning or a {@link BadInputException}, never a crash. */
class MalformedInputTest {

    @TempDir
    Path tmp;

    private Path spark() {
        return Fixtures.copy("dgx-spark", tmp.resolve("spark"));
    }

    private static void write(Path root, String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static Host detect(Path root) {
        return HostDetector.detect(SystemFiles.fixture(root));
    }

    private static void assertWarned(Host host, String... fragments) {
        for (String fragment : fragments) {
            assertTrue(host.warnings().stream().anyMatch(w -> w.contains(fragment)),
                    () -> "no warning containing '" + fragment + "' in " + host.warnings());
        }
    }

    @Test
    void shouldWarnAboutCpusMissingFromATruncatedCpuinfo() throws IOException {
        Path root = spark();
        String cpuinfo = Files.readString(root.resolve("proc/cpuinfo"));
        // Cut in the middle of a line of the eighth processor block.
        int cut = cpuinfo.indexOf("processor\t: 7");
        Files.writeString(root.resolve("proc/cpuinfo"), cpuinfo.substring(0, cut + 60));
        Host host = assertDoesNotThrow(() -> detect(root));
        assertEquals(20, host.logicalCpus());
        assertWarned(host, "cpus 8-19 are missing (truncated file?)", "core type unknown for cpus 7-19");
        assertTrue(host.coreTypes().stream().anyMatch(t -> t.name().equals("unknown")));
    }

    @Test
    void shouldRefuseAProcessorNumberThatIsNotANumber() throws IOException {
        Path root = spark();
        write(root, "proc/cpuinfo", "processor\t: zero\nCPU implementer\t: 0x41\n");
        BadInputException e = assertThrows(BadInputException.class, () -> detect(root));
        assertEquals("proc/cpuinfo processor must be a cpu number: processor=zero", e.getMessage());
    }

    @Test
    void shouldSkipACacheWhoseSizeIsGarbage() throws IOException {
        Path root = spark();
        write(root, "sys/devices/system/cpu/cpu5/cache/index2/size", "banana\n");
        Host host = detect(root);
        assertWarned(host, "cpu5/cache/index2 skipped", "size=banana");
        assertEquals(9, host.coreTypes().stream().filter(t -> t.name().equals("Cortex-X925")).findFirst()
                .orElseThrow().dataCache(2).orElseThrow().instances());
        assertEquals(24 * Units.MIB, host.lastLevelCacheTotalBytes());
    }

    @Test
    void shouldSkipACacheSizeTooLargeToHold() throws IOException {
        Path root = spark();
        write(root, "sys/devices/system/cpu/cpu0/cache/index0/size", "99999999999999999999999K\n");
        Host host = assertDoesNotThrow(() -> detect(root));
        assertWarned(host, "cpu0/cache/index0 skipped");
    }

    @Test
    void shouldTakeACacheAsPrivateWhenItsSharedCpuListIsGarbage() throws IOException {
        Path root = spark();
        write(root, "sys/devices/system/cpu/cpu3/cache/index1/shared_cpu_list", "0-x\n");
        Host host = detect(root);
        assertWarned(host, "cpu list must read like 0-4,10: list=\"0-x\"");
    }

    @Test
    void shouldWarnWhenMemTotalIsGarbage() throws IOException {
        Path root = spark();
        write(root, "proc/meminfo", "MemTotal:       lots kB\n");
        Host host = detect(root);
        assertEquals(0, host.memoryBytes());
        assertWarned(host, "MemTotal must be a number of kB: MemTotal=lots kB");
    }

    @Test
    void shouldFallBackTo128BitsWhenSveLengthIsGarbage() throws IOException {
        Path root = spark();
        write(root, "proc/sys/abi/sve_default_vector_length", "banana\n");
        Host host = detect(root);
        assertEquals(128, host.vectorBitWidth());
        assertWarned(host, "sve_default_vector_length=banana");
    }

    @Test
    void shouldWarnAboutBadArmPartNumbers() throws IOException {
        Path root = spark();
        String cpuinfo = Files.readString(root.resolve("proc/cpuinfo")).replaceFirst("CPU part\t: 0xd87",
                "CPU part\t: 0xzz");
        Files.writeString(root.resolve("proc/cpuinfo"), cpuinfo);
        Host host = detect(root);
        assertWarned(host, "cpu 0 (CPU implementer=0x41, CPU part=0xzz)", "core type unknown for cpus 0");
        assertTrue(host.platform().isPresent(), "DMI still names the Spark");
    }

    @Test
    void shouldSurviveRandomBytesInEveryFileItReads() throws IOException {
        Random random = new Random(42);
        Path root = spark();
        for (String file : List.of("proc/cpuinfo", "proc/meminfo", "sys/devices/system/cpu/online",
                "sys/devices/system/cpu/cpu0/cache/index0/size", "sys/devices/system/cpu/cpu0/topology/cluster_id",
                "sys/kernel/mm/transparent_hugepage/enabled", "proc/sys/abi/sve_default_vector_length")) {
            byte[] original = Files.readAllBytes(root.resolve(file));
            byte[] garbage = new byte[512];
            random.nextBytes(garbage);
            Files.write(root.resolve(file), garbage);
            try {
                Host host = detect(root);
                assertTrue(host.logicalCpus() >= 1);
            } catch (BadInputException expected) {
                assertTrue(expected.getMessage().contains("="), expected.getMessage());
            }
            Files.write(root.resolve(file), original);
        }
    }

    @Test
    void shouldRefuseAnEmptyTreeWithNoCpus() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        BadInputException e = assertThrows(BadInputException.class, () -> detect(empty));
        assertTrue(e.getMessage().startsWith("host must have at least one cpu"), e.getMessage());
    }

    @Test
    void shouldRefuseAFixtureThatIsNotADirectory() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> SystemFiles.fixture(tmp.resolve("absent")));
        assertTrue(e.getMessage().startsWith("host fixture must be a directory: dir="), e.getMessage());
    }

    @Test
    void shouldRefuseAnAvailableProcessorsThatIsNotANumber() throws IOException {
        Path root = spark();
        write(root, SystemFiles.JAVA_FILE, "availableProcessors=many\n");
        BadInputException e = assertThrows(BadInputException.class, () -> SystemFiles.fixture(root));
        assertTrue(e.getMessage().startsWith("availableProcessors must be a whole number: availableProcessors=many"),
                e.getMessage());
    }

    @Test
    void shouldSayCachesAreUnknownWhenNoSourceHasThem() throws IOException {
        Path root = tmp.resolve("bare");
        write(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: Unknown\nflags\t\t: fpu sse2\n");
        Host host = detect(root);
        assertTrue(host.caches().isEmpty());
        assertEquals(0, host.lastLevelCacheTotalBytes());
        assertTrue(host.cacheBytesPerCore(1).isEmpty());
        assertEquals(128, host.vectorBitWidth());
        assertWarned(host, "cache sizes unknown", "no NUMA nodes");
    }

    @Test
    void shouldTrustTheJvmArchitectureWhenCpuinfoDescribesAnEmulatingMachine() throws IOException {
        Path root = Fixtures.copy("dev-epyc", tmp.resolve("qemu"));
        write(root, SystemFiles.JAVA_FILE, "os.name=Linux\nos.arch=aarch64\navailableProcessors=2\n");
        Host host = detect(root);
        assertEquals(CpuInfo.AARCH64, host.cpu().architecture());
        assertEquals(128, host.vectorBitWidth());
        assertWarned(host, "describes an x86_64 cpu but the JVM runs on aarch64");
    }

    @Test
    void shouldUseCpuinfoCacheSizeAsAmdL2WhenNothingElseHasSizes() throws IOException {
        Path root = Fixtures.copy("dev-epyc", tmp.resolve("epyc"));
        Files.delete(root.resolve(SystemFiles.GETCONF_FILE));
        Host host = detect(root);
        assertEquals(List.of(2), host.dataCacheLevels());
        assertEquals("cpuinfo", host.caches().get(0).source());
        assertEquals(Units.MIB, host.cacheBytesPerCore(2).orElseThrow());
        assertWarned(host, "only the L2 size is known");
    }
}
