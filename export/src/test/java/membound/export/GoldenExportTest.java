package membound.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The files each tool gets from the GB10 fixture, the DGX Spark catalog entry, a CPU-only profile and the example
 * Spark's CPU, byte for byte as the golden files under {@code src/test/resources/membound/export/golden/}. A change
 * of mapping shows here as a diff to review; {@code -Dmembound.export.regenerate=true} rewrites them.
 */
class GoldenExportTest {

    static final Path GOLDEN = Path.of("src/test/resources/membound/export/golden");

    @ParameterizedTest(name = "{1} from {0}")
    @MethodSource("membound.export.ToolSchemaTest#exports")
    void theExportIsTheGoldenOne(String source, ExportTool tool) throws IOException {
        Export export = ToolSchemaTest.export(source, tool);
        Path dir = GOLDEN.resolve(source);
        if (export == null) {
            assertTrue(!Files.exists(dir.resolve(ExportSources.name(source, tool))), "no golden for a refused export");
            return;
        }
        if (tool.directory()) {
            dir = dir.resolve(ExportSources.name(source, tool));
        }
        boolean regenerate = Boolean.getBoolean("membound.export.regenerate");
        for (Map.Entry<String, byte[]> file : export.files().entrySet()) {
            Path golden = dir.resolve(file.getKey());
            if (regenerate) {
                Files.createDirectories(dir);
                Files.write(golden, file.getValue());
            }
            assertTrue(Files.isRegularFile(golden), "golden file " + golden
                    + " (run with -Dmembound.export.regenerate=true to write it)");
            assertEquals(Files.readString(golden), new String(file.getValue(), StandardCharsets.UTF_8),
                    golden.toString());
        }
    }
}
