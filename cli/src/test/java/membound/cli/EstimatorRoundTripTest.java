package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Link;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * {@code membound export} then {@code membound import} (issue 29, item 5): every figure an llm-analysis GPU file or a
 * Calculon system file holds comes back, in the tool's own units, from the profile the import wrote; and the imported
 * machine stands beside the others in {@code predict --compare profile:FILE}.
 */
class EstimatorRoundTripTest {

    /** Figures travel through the tool's units at six significant digits; capacity in whole bytes. */
    static final double UNITS = 1e-9;

    /** A product of figures each written to six significant digits. */
    static final double EXPORT_DIGITS = 2e-6;

    @TempDir
    Path dir;

    static final Map<String, String> SOURCES = new LinkedHashMap<>();

    static {
        SOURCES.put("gb10", "--profile=" + GpuPredictTest.FIXTURE);
        SOURCES.put("spark-datasheet", "--hardware=dgx-spark");
        SOURCES.put("cpu", "--profile=" + TestProfiles.root().resolve("docs/records/profiles/vm-20261130T001543Z.json"));
    }

    Path export(String tool, String source, String name) {
        Path out = dir.resolve(name);
        ProfileCommandsTest.ok("export", "--to", tool, SOURCES.get(source), "--out", out.toString());
        return out;
    }

    Profile importFile(String format, Path file) {
        Path out = dir.resolve(file.getFileName() + ".profile.json");
        ProfileCommandsTest.Run r = ProfileCommandsTest.ok("import", "--format", format, file.toString(), "--output",
                out.toString());
        assertTrue(r.out().startsWith("wrote " + out), r.both());
        return ProfileJson.read(out);
    }

    static double latencySeconds(Link link) {
        return link.latencyNanos() == null ? 0 : link.latencyNanos() * 1e-9;
    }

    @ParameterizedTest
    @ValueSource(strings = {"gb10", "spark-datasheet", "cpu"})
    void anLlmAnalysisGpuFileExportedAndImportedGivesBackEveryFigureInItsUnits(String source) throws IOException {
        Path file = export("llm-analysis", source, source + ".llm-analysis.json");
        Profile p = importFile("llm-analysis", file);
        String id = "gpu";
        Map<String, Function<Profile, Double>> figure = new LinkedHashMap<>();
        figure.put("mem_per_GPU_in_GB", q -> q.device(id).orElseThrow().memory().capacityBytes() / (double) (1L << 30));
        figure.put("hbm_bandwidth_in_GB_per_sec", q -> q.nominal().memoryBandwidthOf(id).orElseThrow().bytesPerSecond()
                / 1e9);
        figure.put("intra_node_bandwidth_in_GB_per_sec", q -> q.link("intra-node").orElseThrow()
                .bandwidthBytesPerSecond().best() / 1e9);
        figure.put("intra_node_min_message_latency", q -> latencySeconds(q.link("intra-node").orElseThrow()));
        figure.put("peak_fp16_TFLOPS", q -> q.nominal().computeOf(id, Precision.FP16).orElseThrow().flopsPerSecond()
                / 1e12);
        figure.put("peak_i8_TFLOPS", q -> q.nominal().computeOf(id, Precision.INT8).orElseThrow().flopsPerSecond()
                / 1e12);
        figure.put("peak_i4_TFLOPS", q -> q.nominal().computeOf(id, Precision.INT4).orElseThrow().flopsPerSecond()
                / 1e12);
        figure.put("inter_node_bandwidth_in_GB_per_sec", q -> q.link("inter-node").orElseThrow()
                .bandwidthBytesPerSecond().best() / 1e9);
        JsonNode written = new ObjectMapper().readTree(Files.readString(file));
        for (Iterator<Map.Entry<String, JsonNode>> keys = written.fields(); keys.hasNext(); ) {
            Map.Entry<String, JsonNode> key = keys.next();
            if (key.getKey().equals("name")) {
                assertEquals(key.getValue().asText(), p.host().hostname());
                continue;
            }
            assertNotNull(figure.get(key.getKey()), "the export wrote " + key.getKey() + ", which the import must read");
            assertEquals(key.getValue().asDouble(), figure.get(key.getKey()).apply(p),
                    Math.abs(key.getValue().asDouble()) * UNITS, key.getKey());
        }
        assertEquals(p.nominal().computeOf(id, Precision.FP16).orElseThrow().flopsPerSecond(),
                p.nominal().computeOf(id, Precision.BF16).orElseThrow().flopsPerSecond(),
                "llm-analysis times 16-bit math of every kind at peak_fp16_TFLOPS");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gb10", "spark-datasheet", "cpu"})
    void aCalculonSystemFileExportedAndImportedGivesBackEveryFigureInItsUnits(String source) throws IOException {
        Path file = export("calculon", source, source + ".calculon.json");
        Profile p = importFile("calculon", file);
        JsonNode written = new ObjectMapper().readTree(Files.readString(file));
        Device gpu = p.device("gpu").orElseThrow();
        List<String> checked = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> dts = written.get("matrix").fields(); dts.hasNext(); ) {
            Map.Entry<String, JsonNode> dt = dts.next();
            Precision precision = precision(dt.getKey());
            double tflops = dt.getValue().get("tflops").asDouble();
            assertEquals(tflops, p.nominal().computeOf("gpu", precision).orElseThrow().flopsPerSecond() / 1e12,
                    tflops * UNITS, "matrix." + dt.getKey() + ".tflops");
            JsonNode table = dt.getValue().get("gflops_efficiency");
            ComputeEntry gemm = gpu.compute().stream().filter(c -> c.kind() == ComputeEntry.Kind.GEMM
                    && c.precision() == precision).findFirst().orElseThrow();
            assertEquals(tflops * table.get(0).get(1).asDouble(), gemm.flopsPerSecond().best() / 1e12,
                    tflops * UNITS, "matrix." + dt.getKey() + ".gflops_efficiency[0][1]");
            assertEquals(rows(table), gemm.provenance().settings().get("rows"), "the whole table");
            checked.add("matrix." + dt.getKey());
        }
        JsonNode vector = written.get("vector").get("float32");
        ComputeEntry fma = gpu.compute().stream().filter(c -> c.kind() == ComputeEntry.Kind.FMA_PEAK).findFirst()
                .orElseThrow();
        assertEquals(vector.get("tflops").asDouble() * vector.get("gflops_efficiency").get(0).get(1).asDouble(),
                fma.flopsPerSecond().best() / 1e12, vector.get("tflops").asDouble() * UNITS, "vector.float32");
        JsonNode mem1 = written.get("mem1");
        assertEquals(mem1.get("GiB").asDouble(), gpu.memory().capacityBytes() / (double) (1L << 30),
                mem1.get("GiB").asDouble() * UNITS, "mem1.GiB");
        assertEquals(mem1.get("GBps").asDouble(), p.nominal().memoryBandwidthOf("gpu").orElseThrow().bytesPerSecond()
                / 1e9, mem1.get("GBps").asDouble() * UNITS, "mem1.GBps");
        double read = gpu.levels().stream().filter(c -> c.level() == MemoryLevel.DRAM && c.access() == AccessPattern.READ)
                .findFirst().orElseThrow().bytesPerSecond();
        assertEquals(mem1.get("GBps").asDouble() * mem1.get("MB_efficiency").get(0).get(1).asDouble(), read / 1e9,
                mem1.get("GBps").asDouble() * UNITS, "mem1.MB_efficiency[0][1]");
        assertEquals(rows(mem1.get("MB_efficiency")), gpu.bandwidth().get(0).provenance().settings().get("rows"));
        assertEquals(0, written.get("mem2").get("GiB").asDouble(), "every source here has no offload memory");
        assertTrue(p.device("cpu").isEmpty(), "mem2 of 0 GiB: no host");
        JsonNode networks = written.get("networks");
        for (int i = 0; i < networks.size(); i++) {
            JsonNode net = networks.get(i);
            if (net.get("size").asInt() == 1) {
                assertTrue(p.link("tier" + i).isEmpty(), "a tier of one device is no link");
                continue;
            }
            Link link = p.link("tier" + i).orElseThrow();
            assertEquals(net.get("bandwidth").asDouble() * net.get("efficiency").asDouble(),
                    link.bandwidthBytesPerSecond().best() / 1e9, net.get("bandwidth").asDouble() * UNITS,
                    "networks[" + i + "].bandwidth");
            assertEquals(net.get("latency").asDouble(), latencySeconds(link), 1e-15, "networks[" + i + "].latency");
            assertEquals(net.get("size").asText(), link.provenance().settings().get("size"));
        }
        assertFalse(checked.isEmpty());
    }

    /**
     * The figures the model reads come back whole: the GB10 fixture exported to Calculon and imported back predicts
     * the fixture's own step on both bases (its peaks as the datasheet, its measured rates as the table's).
     */
    @Test
    void aCalculonFileOfTheGb10FixturePredictsTheFixturesOwnStep() throws IOException {
        Path file = export("calculon", "gb10", "gb10.calculon.json");
        Path imported = dir.resolve("gb10.profile.json");
        ProfileCommandsTest.ok("import", "--format", "calculon", file.toString(), "--output", imported.toString());
        JsonNode fixture = predict(GpuPredictTest.FIXTURE);
        JsonNode back = predict(imported);
        for (String basis : List.of("measured", "datasheet")) {
            double expected = fixture.get(basis).get("stepSeconds").asDouble();
            // The export writes six significant digits (0.851648 of 273 GB/s is 232.49990 GB/s): the step moves
            // by that rounding at most.
            assertEquals(expected, back.get(basis).get("stepSeconds").asDouble(), expected * EXPORT_DIGITS, basis);
        }
    }

    @Test
    void predictPutsImportedFilesBesideACatalogEntryAndAProfile() {
        Path gpu = export("llm-analysis", "spark-datasheet", "spark.llm-analysis.json");
        Path imported = dir.resolve("spark.profile.json");
        ProfileCommandsTest.ok("import", "--format", "llm-analysis", gpu.toString(), "--output", imported.toString());
        ProfileCommandsTest.Run r = ProfileCommandsTest.ok("predict", "--model", "gpt2-124m", "--profile",
                GpuPredictTest.FIXTURE.toString(), "--compare", "dgx-spark,profile:" + imported);
        assertTrue(r.out().contains("profile:spark.profile.json"), r.both());
        assertTrue(r.out().contains("profile:dgx-spark-gpu-published.json"), r.both());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("dgx-spark ")), r.both());
        assertFalse(r.out().contains("error"), r.both());
    }

    @Test
    void theImportSaysWhichKeysItReadAndWhatEachBecame() {
        Path gpu = export("llm-analysis", "gb10", "g.json");
        ProfileCommandsTest.Run r = ProfileCommandsTest.ok("import", "--format", "llm-analysis", gpu.toString(),
                "--output", dir.resolve("g.profile.json").toString());
        assertTrue(r.out().contains("read  hbm_bandwidth_in_GB_per_sec = 232.5 GB/s (x 10^9) -> gpu nominal memory "
                + "bandwidth"), r.both());
        assertTrue(r.out().contains("flag  estimator-file"), r.both());
    }

    private JsonNode predict(Path profile) throws IOException {
        ProfileCommandsTest.Run r = ProfileCommandsTest.ok("predict", "--profile", profile.toString(), "--model",
                "llama-3.2-1b", "--format", "json");
        return new ObjectMapper().readTree(r.out());
    }

    private static Precision precision(String datatype) {
        return switch (datatype) {
            case "float8" -> Precision.FP8;
            case "float16" -> Precision.FP16;
            case "bfloat16" -> Precision.BF16;
            case "float32" -> Precision.FP32;
            default -> throw new AssertionError("a datatype Calculon lacks: " + datatype);
        };
    }

    /** A table as the import's provenance writes it: [[100, 0.9], [0, 0.2]]. */
    private static String rows(JsonNode table) {
        List<String> rows = new ArrayList<>();
        for (JsonNode row : table) {
            rows.add("[" + number(row.get(0)) + ", " + number(row.get(1)) + "]");
        }
        return "[" + String.join(", ", rows) + "]";
    }

    private static String number(JsonNode n) {
        return n.decimalValue().stripTrailingZeros().toPlainString();
    }
}
