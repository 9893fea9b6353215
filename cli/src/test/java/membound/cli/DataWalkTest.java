package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.FlopCeiling;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * The walk of docs/architecture.md, in the code: what the calibrator stores as a ceiling is, bit for bit, the figure
 * {@code predict} prints as that ceiling, for memory and for compute, on a calibration made here and on the GPU
 * fixture, and each printed ceiling names the profile it came from.
 */
class DataWalkTest {

    @TempDir
    Path dir;

    private static JsonNode predict(String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Membound.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, status, err.toString());
        return new ObjectMapper().readTree(out.toString());
    }

    private static double printed(JsonNode prediction, String ceiling) {
        for (JsonNode c : prediction.path("measuredCeilings")) {
            if (c.path("ceiling").asText().equals(ceiling)) {
                return c.path("value").doubleValue();
            }
        }
        throw new AssertionError("predict printed no '" + ceiling + "': " + prediction.path("measuredCeilings"));
    }

    @Test
    void aCalibratedDramCeilingAndGemmCeilingArePrintedAsTheProfileStoresThem() throws Exception {
        System.setProperty("membound.calibrationLock", dir.resolve("calibration.lock").toString());
        try {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status = Membound.run(new String[] {"calibrate", "--smoke", "--nominal-bandwidth", "50GB/s",
                    "--profiles-dir", dir.toString()},
                    new PrintWriter(out, true), new PrintWriter(err, true));
            assertEquals(0, status, out + "\n" + err);
            assertSummaryExplainsEveryRow(out.toString());
        } finally {
            System.clearProperty("membound.calibrationLock");
        }
        Path file;
        try (Stream<Path> files = Files.list(dir)) {
            file = files.filter(f -> f.toString().endsWith(".json") && !f.toString().endsWith(".jmh.json"))
                    .findFirst().orElseThrow();
        }
        Profile profile = ProfileJson.read(file);
        Device cpu = profile.device("cpu").orElseThrow();
        if ("true".equals(profile.provenance().settings().get("jvm.transparentHugePages"))) {
            assertFalse(profile.quality().flags().stream().anyMatch(f -> f.message().contains("UseTransparentHugePages")),
                    "the forks had huge pages: no warning that they would not " + profile.quality().flags());
        }
        // A smoke run's tiny working sets may measure no DRAM plateau: a nominal figure lets it predict, and every
        // cache-level ceiling it stores is compared where predict prints one.
        JsonNode prediction = predict("predict", "--model", "gpt2", "--profile", file.toString(), "--precision", "fp32",
                "--format", "json");
        int compared = 0;
        for (LevelCeiling stored : cpu.levels()) {
            String name = stored.level() + " " + stored.access().label() + " bandwidth";
            for (JsonNode c : prediction.path("measuredCeilings")) {
                if (c.path("ceiling").asText().equals(name) && stored.level() != MemoryLevel.DRAM) {
                    assertEquals(stored.bytesPerSecond(), c.path("value").doubleValue(), 0.0, name + ", bit for bit");
                    assertTrue(c.path("source").asText().contains("(profile " + file + ")"), c.toString());
                    compared++;
                }
            }
        }
        assertTrue(compared > 0, "some stored level ceiling is printed: " + prediction.path("measuredCeilings"));
        FlopCeiling gemm = cpu.computeCeiling(Precision.FP32, ComputeEntry.Kind.GEMM).orElseThrow();
        assertEquals(gemm.flopsPerSecond(), printed(prediction, "fp32 GEMM"), 0.0, "the GEMM ceiling, bit for bit");
    }

    /**
     * The table that ends a calibration fills every "vs nominal" cell (a share, "unknown", or "-" for a cache level),
     * explains an update row (Copy's figure in hardware bytes, not a kernel of its own), and warns about transparent
     * huge pages only where the forks ran without them.
     */
    private static void assertSummaryExplainsEveryRow(String out) {
        List<String> lines = out.lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("level  access")).findFirst().orElseThrow());
        int rows = 0;
        for (String line : lines.subList(header + 1, lines.size())) {
            if (!line.matches("^(L1|L2|L3|SLC|DRAM)\\s.*")) {
                break;
            }
            rows++;
            String last = line.substring(line.lastIndexOf(' ') + 1);
            boolean update = line.matches("^\\S+\\s+update\\s.*");
            assertTrue(last.equals("-") ? !line.startsWith("DRAM") : update ? line.endsWith("as copy")
                    : last.equals("unknown") || last.matches("\\d+%"), "vs nominal: " + line + "\n" + out);
            if (update) {
                String level = line.split("\\s+")[0];
                assertTrue(out.lines().anyMatch(l -> l.startsWith("update (") && l.contains("): not a kernel of its own")
                        && l.substring(0, l.indexOf(')')).contains(level)), "the update row explained\n" + out);
            }
        }
        assertTrue(rows > 0, out);
    }

    @Test
    void theGpuFixturesStoredGemmCeilingIsTheOnePredictPrints() throws Exception {
        Path file = TestProfiles.root().resolve("results/profiles/examples/dgx-spark-gpu-published.json");
        Profile profile = ProfileJson.read(file);
        Device gpu = profile.device("gpu").orElseThrow();
        JsonNode prediction = predict("predict", "--model", "llama-3.1-8b", "--profile", file.toString(), "--format",
                "json");
        for (Precision precision : List.of(Precision.BF16)) {
            FlopCeiling stored = gpu.computeCeiling(precision, ComputeEntry.Kind.GEMM).orElseThrow();
            assertEquals(stored.flopsPerSecond(), printed(prediction, precision.label() + " GEMM"), 0.0,
                    precision + " GEMM, bit for bit");
        }
        LevelCeiling read = gpu.levels().stream().filter(c -> c.level() == MemoryLevel.DRAM
                && c.access() == AccessPattern.READ).findFirst().orElseThrow();
        assertEquals(read.bytesPerSecond(), printed(prediction, "DRAM read bandwidth"), 0.0);
    }
}
