package membound.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import membound.vocabulary.BadInputException;

/**
 * Every key an export writes is one the tool's own code reads, and every figure goes through the tool's unit and
 * back to the SI figure it came from. The schemas in {@code src/test/resources/membound/export/schema/} were read
 * from each tool's source at the commit they name (file and line per key), with the factor the tool multiplies
 * each value by; they are kept apart from the exporters so that a wrong unit in an exporter fails here.
 */
class ToolSchemaTest {

    static final ObjectMapper JSON = new ObjectMapper();
    /** Six significant digits are written: a round trip is exact to within this. */
    static final double ROUND_TRIP = 1e-5;

    static Stream<Arguments> exports() {
        List<Arguments> all = new ArrayList<>();
        for (Map.Entry<String, java.util.function.Supplier<ExportInput>> source : ExportSources.all().entrySet()) {
            for (ExportTool tool : ExportTool.values()) {
                all.add(Arguments.of(source.getKey(), tool));
            }
        }
        return all.stream();
    }

    static JsonNode schema(ExportTool tool) throws IOException {
        try (InputStream in = ToolSchemaTest.class.getResourceAsStream("schema/" + tool.label() + ".json")) {
            assertNotNull(in, "schema of " + tool);
            return JSON.readTree(in);
        }
    }

    /** The export, or null where it is refused by design (ASTRA-sim for a machine with no link). */
    static Export export(String source, ExportTool tool) {
        ExportInput input = ExportSources.all().get(source).get();
        try {
            return Exporter.build(tool, input, ExportSources.name(source, tool));
        } catch (BadInputException e) {
            if (tool == ExportTool.ASTRA_SIM && source.equals("cpu")) {
                return null;
            }
            throw e;
        }
    }

    @ParameterizedTest(name = "{1} from {0}")
    @MethodSource("exports")
    void everyKeyWrittenIsOneTheToolReads(String source, ExportTool tool) throws IOException {
        Export export = export(source, tool);
        if (export == null) {
            return;
        }
        JsonNode schema = schema(tool);
        assertEquals(tool.commit(), schema.path("commit").asText(), "the schema and the exporter name one commit");
        for (Map.Entry<String, byte[]> file : export.files().entrySet()) {
            JsonNode fileSchema = fileSchema(schema, tool, file.getKey());
            if (fileSchema.path("format").asText().equals("provenance")) {
                continue;
            }
            List<String> ignored = new ArrayList<>();
            schema.path("ignoredKeys").forEach(k -> ignored.add(k.asText()));
            for (String path : leaves(fileSchema.path("format").asText(), file.getValue())) {
                String top = path.split("[.\\[]")[0];
                if (ignored.contains(top)) {
                    continue;
                }
                assertNotNull(match(fileSchema, path), tool + " does not read " + path + " (file " + file.getKey()
                        + ", " + schema.path("url").asText() + ")");
            }
        }
    }

    @ParameterizedTest(name = "{1} from {0}")
    @MethodSource("exports")
    void everyFigureGoesThroughTheToolsUnitAndBack(String source, ExportTool tool) throws IOException {
        Export export = export(source, tool);
        if (export == null) {
            return;
        }
        JsonNode schema = schema(tool);
        assertFalse(export.figures().isEmpty());
        for (ExportedFigure f : export.figures()) {
            JsonNode key = match(fileSchema(schema, tool, f.file()), f.key());
            assertNotNull(key, f.key() + " is not a key " + tool + " reads");
            assertFalse(key.path("siPerUnit").isNull(), f.key() + " has no unit in the schema");
            double back = f.value() * key.path("siPerUnit").asDouble();
            double tolerance = ROUND_TRIP * Math.max(Math.abs(f.siValue()), Double.MIN_NORMAL);
            assertEquals(f.siValue(), back, tolerance, f.key() + " in " + f.unit() + " back to " + f.siUnit());
            assertEquals(key.path("unit").asText(f.unit()), f.unit(), f.key() + ": the schema's unit");
            // The value is the one in the file.
            Double written = writtenValue(fileSchema(schema, tool, f.file()).path("format").asText(),
                    export.files().get(f.file()), f.key());
            assertNotNull(written, f.key() + " is not in " + f.file());
            assertEquals(f.value(), written, 0, f.key());
        }
    }

    /** Calculon asserts strictly decreasing thresholds ending at 0 and efficiencies in (0, 1]. */
    @ParameterizedTest(name = "calculon from {0}")
    @MethodSource("sources")
    void calculonTablesHoldCalculonsAsserts(String source) throws IOException {
        Export export = export(source, ExportTool.CALCULON);
        JsonNode system = JSON.readTree(export.files().values().iterator().next());
        List<JsonNode> tables = new ArrayList<>();
        for (String group : List.of("matrix", "vector")) {
            system.path(group).forEach(dt -> tables.add(dt.path("gflops_efficiency")));
        }
        tables.add(system.path("mem1").path("MB_efficiency"));
        tables.add(system.path("mem2").path("MB_efficiency"));
        for (JsonNode table : tables) {
            assertTrue(table.size() >= 1, table.toString());
            double last = Double.POSITIVE_INFINITY;
            for (JsonNode row : table) {
                assertTrue(row.get(0).asDouble() < last, "strictly decreasing: " + table);
                last = row.get(0).asDouble();
                assertTrue(row.get(1).asDouble() > 0 && row.get(1).asDouble() <= 1, "efficiency in (0, 1]: " + table);
            }
            assertEquals(0, last, "the last threshold is 0: " + table);
        }
        for (JsonNode network : system.path("networks")) {
            List<String> keys = new ArrayList<>();
            network.fieldNames().forEachRemaining(keys::add);
            assertEquals(List.of("bandwidth", "efficiency", "size", "latency", "ops", "must_be_filled",
                    "processor_usage"), keys, "Network asserts exactly its seven keys (calculon/network.py:44)");
        }
    }

    static Stream<String> sources() {
        return ExportSources.all().keySet().stream();
    }

    /** The CPU profile's product and GEMM sweep and working-set sweep become tables of several rows. */
    @Test
    void aProfileWithSweepsGivesCalculonSizeDependentTables() throws IOException {
        JsonNode system = JSON.readTree(export("cpu", ExportTool.CALCULON).files().values().iterator().next());
        assertTrue(system.path("matrix").path("float32").path("gflops_efficiency").size() > 2,
                system.path("matrix").toString());
        assertTrue(system.path("mem1").path("MB_efficiency").size() > 2, system.path("mem1").toString());
    }

    @Test
    void measuredOnlyRefusesADatasheetFigureInsteadOfWritingIt() {
        ExportInput input = ExportInput.profile(ExportSources.root().resolve(ExportSources.GB10), ExportSources.GB10,
                null, true);
        BadInputException e = assertThrows(BadInputException.class,
                () -> Exporter.build(ExportTool.CALCULON, input, "x.json"));
        assertTrue(e.getMessage().startsWith("--measured-only"), e.getMessage());
    }

    @Test
    void aProfileFigureComesFromTheProfileAndACatalogFigureFromTheDatasheet() {
        Export measured = export("gb10", ExportTool.LLM_ANALYSIS);
        Export datasheet = export("spark-datasheet", ExportTool.LLM_ANALYSIS);
        ExportedFigure m = measured.figure("gb10.llm-analysis.json", "hbm_bandwidth_in_GB_per_sec");
        ExportedFigure d = datasheet.figure("spark-datasheet.llm-analysis.json", "hbm_bandwidth_in_GB_per_sec");
        assertEquals(Origin.MEASURED, m.origin());
        assertEquals(232.5, m.value(), 1e-9);
        assertEquals(Origin.DATASHEET, d.origin());
        assertEquals(273, d.value(), 1e-9);
        assertEquals(Origin.MEASURED, measured.figure("gb10.llm-analysis.json", "peak_fp16_TFLOPS").origin());
        assertEquals(92.3, measured.figure("gb10.llm-analysis.json", "peak_fp16_TFLOPS").value(), 1e-9);
        // The network link the fixture never measured is the platform's datasheet one, and said.
        assertEquals(Origin.DATASHEET, measured.figure("gb10.llm-analysis.json",
                "inter_node_bandwidth_in_GB_per_sec").origin());
        assertTrue(measured.notes().stream().anyMatch(n -> n.contains("was not measured") && n.contains("cx7")),
                measured.notes().toString());
    }

    private static JsonNode fileSchema(JsonNode schema, ExportTool tool, String fileName) {
        JsonNode files = schema.path("files");
        if (tool.directory()) {
            JsonNode f = files.path(fileName);
            assertFalse(f.isMissingNode(), tool + " takes no file " + fileName);
            return f;
        }
        if (fileName.endsWith(".membound.json")) {
            return JSON.createObjectNode().put("format", "provenance");
        }
        return files.elements().next();
    }

    private static JsonNode match(JsonNode fileSchema, String path) {
        for (JsonNode key : fileSchema.path("keys")) {
            if (Pattern.matches(key.path("pattern").asText(), path)) {
                return key;
            }
        }
        return null;
    }

    /** Every leaf of a file as a path: {@code a.b[0][1]}. */
    static List<String> leaves(String format, byte[] bytes) throws IOException {
        List<String> paths = new ArrayList<>();
        if (format.equals("yaml-lists")) {
            yaml(bytes).forEach((key, values) -> {
                for (int i = 0; i < values.size(); i++) {
                    paths.add(key + "[" + i + "]");
                }
            });
            return paths;
        }
        walk(JSON.readTree(bytes), "", paths);
        return paths;
    }

    private static void walk(JsonNode node, String path, List<String> paths) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                walk(f.getValue(), path.isEmpty() ? f.getKey() : path + "." + f.getKey(), paths);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", paths);
            }
        } else {
            paths.add(path);
        }
    }

    private static Double writtenValue(String format, byte[] bytes, String key) throws IOException {
        if (format.equals("yaml-lists")) {
            Matcher m = Pattern.compile("(.+)\\[(\\d+)\\]").matcher(key);
            assertTrue(m.matches(), key);
            List<String> values = yaml(bytes).get(m.group(1));
            return values == null ? null : Double.valueOf(values.get(Integer.parseInt(m.group(2))));
        }
        JsonNode node = JSON.readTree(bytes);
        for (String part : key.split("\\.")) {
            Matcher m = Pattern.compile("([^\\[]+)((?:\\[\\d+\\])*)").matcher(part);
            assertTrue(m.matches(), key);
            node = node.path(m.group(1));
            Matcher index = Pattern.compile("\\[(\\d+)\\]").matcher(m.group(2));
            while (index.find()) {
                node = node.path(Integer.parseInt(index.group(1)));
            }
        }
        return node.isNumber() ? node.asDouble() : null;
    }

    /** The flow lists of ASTRA-sim's network file: {@code key: [ a, b ]  # comment}, comment lines skipped. */
    static Map<String, List<String>> yaml(byte[] bytes) {
        Map<String, List<String>> lists = new java.util.LinkedHashMap<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            String text = line.replaceAll("#.*", "").trim();
            if (text.isEmpty()) {
                continue;
            }
            Matcher m = Pattern.compile("([a-z_]+): \\[(.*)\\]").matcher(text);
            assertTrue(m.matches(), "a flow list: " + line);
            List<String> values = new ArrayList<>();
            for (String v : m.group(2).split(",")) {
                values.add(v.trim());
            }
            lists.put(m.group(1), values);
        }
        return lists;
    }
}
