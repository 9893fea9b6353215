package membound.calibrator.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.FlopCeiling;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Implementation;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * Profiles of schema 1 and 2 read as schema 3: the calibrator's rules (registered for the profile's migration) type
 * their bandwidth entries, complete their memory ceilings and choose their compute ceilings, and every figure they
 * stored stays as it was. Profiles of schema 1 to 3 read as schema 4: a CPU with hardware-byte figures says they
 * assumed write-allocate, not measured. Every profile the repository holds is read, migrated, written and read back.
 */
class ProfileMigrationTest {

    private static final Path EXAMPLE = Path.of("../results/profiles/examples/dgx-spark-example.json");

    static Stream<Path> committedProfiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : List.of(Path.of("../results/profiles/examples"), Path.of("../docs/records/profiles"),
                Path.of("../cli/src/test/resources/golden/profiles"), Path.of("src/test/resources"),
                Path.of("../report/src/test/resources"))) {
            try (Stream<Path> list = Files.list(dir)) {
                list.filter(f -> f.toString().endsWith(".json")).filter(ProfileMigrationTest::claimsToBeAProfile)
                        .sorted().forEach(files::add);
            }
        }
        return files.stream();
    }

    private static boolean claimsToBeAProfile(Path file) {
        try {
            return ProfileJson.claimsToBeAProfile(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @MethodSource("committedProfiles")
    void everyCommittedProfileReadsAsTheCurrentSchemaAndSurvivesWriteAndRead(Path file) {
        Profile profile = ProfileJson.read(file);
        assertEquals(Profile.SCHEMA_VERSION, profile.schemaVersion());
        byte[] written = ProfileJson.toBytes(profile);
        Profile again = ProfileJson.read(written, file.toString());
        assertEquals(profile, again, "write then read is the identity");
        assertEquals(new String(written, StandardCharsets.UTF_8),
                new String(ProfileJson.toBytes(again), StandardCharsets.UTF_8), "and writes the same bytes");
        for (Device device : profile.devices()) {
            assertEquals(MemoryCeilingRule.complete(device.levels()), device.levels(),
                    "the stored ceilings are complete: completing them again changes nothing (" + device.id() + ")");
            assertEquals(ComputeCeilingRule.ceilings(device.compute()), device.computeCeilings(),
                    "the stored compute ceilings are the rule's (" + device.id() + ")");
            for (BandwidthEntry entry : device.bandwidth()) {
                assertEquals(MemoryCeilingRule.patternOf(entry.kernel()).map(p -> p.pattern()).orElse(null),
                        entry.pattern(), entry.id());
            }
            if (device.bandwidth().stream().anyMatch(b -> b.hardwareBytesPerSecond() != null)) {
                // No committed profile measured its stores: its hardware bytes keep the assumed write-allocate.
                assertEquals(membound.profile.WriteAllocation.Answer.ASSUMED, device.writeAllocation().answer(),
                        device.id());
                assertTrue(device.writeAllocation().storesAllocate());
            }
        }
    }

    @Test
    void aVersionOneProfileReadsAsTheExample() throws IOException {
        // The example as version 1 wrote it: a ceiling per kernel (scale and add beside copy and triad), no update.
        byte[] v1 = Files.readAllBytes(Path.of("src/test/resources/dgx-spark-example-v1.json"));
        assertTrue(new String(v1, StandardCharsets.UTF_8).contains("\"access\": \"scale\""));
        assertTrue(new String(v1, StandardCharsets.UTF_8).contains("\"schemaVersion\": 1"));
        Profile migrated = ProfileJson.read(v1, "dgx-spark-example-v1.json");
        assertEquals(ProfileJson.read(EXAMPLE).devices(), migrated.devices(),
                "migrating version 1 gives the example's devices, write-allocate assumed");
        Device cpu = migrated.device("cpu").orElseThrow();
        LevelCeiling update = cpu.ceiling(MemoryLevel.DRAM, AccessPattern.UPDATE).orElseThrow();
        assertTrue(update.inHardwareBytes());
        assertEquals(cpu.bandwidthEntry(update.bandwidthId()).orElseThrow().hardwareBytesPerSecond().typical(),
                update.bytesPerSecond());
    }

    @Test
    void aMigratedProfileTypesWhatVersionTwoKeptInSettings() {
        Device cpu = ProfileJson.read(Path.of("../cli/src/test/resources/golden/profiles/cpu-quick-v2.json"))
                .device("cpu").orElseThrow();
        BandwidthEntry triad = cpu.bandwidth().stream().filter(b -> b.kernel().equals("triad")).findFirst()
                .orElseThrow();
        assertEquals(Implementation.VECTOR, triad.implementation(), "from param.implementation=vector");
        assertEquals(AccessPattern.TRIAD, triad.pattern());
        assertTrue(triad.definesPattern());
        FlopCeiling gemm = cpu.computeCeiling(Precision.FP32, ComputeEntry.Kind.GEMM).orElseThrow();
        assertTrue(gemm.measuredAsItIs(), "a measured GEMM is its own ceiling");
        assertEquals(cpu.compute().stream().filter(c -> c.kind() == ComputeEntry.Kind.GEMM
                && c.precision() == Precision.FP32).mapToDouble(c -> c.flopsPerSecond().typical()).max().orElseThrow(),
                gemm.flopsPerSecond(), "the best GEMM of any order");
        LevelCeiling write = cpu.levels().stream().filter(l -> l.level() == MemoryLevel.DRAM
                && l.access() == AccessPattern.WRITE).findFirst().orElseThrow();
        assertEquals(AccessPattern.COPY, write.takenFrom(), "the quick mode measures no Fill: the copy figure stands in");
    }
}
