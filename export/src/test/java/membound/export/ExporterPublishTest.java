package membound.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

/** An export reaches the disk whole or not at all, and never over a file that is there. */
class ExporterPublishTest {

    @TempDir
    Path dir;

    @Test
    void aSingleFileToolWritesTheFileAndItsSidecar() throws IOException {
        Export export = Exporter.build(ExportTool.LLM_ANALYSIS, ExportInput.catalog("dgx-spark"), "spark.json");
        List<Path> written = Exporter.publish(export, dir.resolve("spark.json"));
        assertEquals(List.of(dir.resolve("spark.membound.json"), dir.resolve("spark.json")), written);
        assertEquals(List.of("spark.json", "spark.membound.json"), names(dir));
    }

    @Test
    void anExistingSidecarStopsTheExportBeforeAnythingIsWritten() throws IOException {
        Files.writeString(dir.resolve("spark.membound.json"), "mine");
        Export export = Exporter.build(ExportTool.LLM_ANALYSIS, ExportInput.catalog("dgx-spark"), "spark.json");
        BadInputException e = assertThrows(BadInputException.class,
                () -> Exporter.publish(export, dir.resolve("spark.json")));
        assertTrue(e.getMessage().contains("must not exist"), e.getMessage());
        assertEquals(List.of("spark.membound.json"), names(dir));
        assertEquals("mine", Files.readString(dir.resolve("spark.membound.json")));
    }

    @Test
    void aDirectoryToolPublishesTheWholeDirectoryAndNoTemporary() throws IOException {
        Export export = Exporter.build(ExportTool.ASTRA_SIM, ExportInput.catalog("dgx-spark"), "spark");
        Exporter.publish(export, dir.resolve("spark"));
        assertEquals(List.of("spark"), names(dir));
        assertEquals(List.of("membound.json", "memory.json", "network.yml", "system.json"), names(dir.resolve("spark")));
    }

    @Test
    void anExistingDirectoryIsNeverWrittenInto() throws IOException {
        Files.createDirectory(dir.resolve("spark"));
        Export export = Exporter.build(ExportTool.ASTRA_SIM, ExportInput.catalog("dgx-spark"), "spark");
        assertThrows(BadInputException.class, () -> Exporter.publish(export, dir.resolve("spark")));
        assertEquals(List.of(), names(dir.resolve("spark")));
        assertEquals(List.of("spark"), names(dir));
    }

    @Test
    void aDirectoryThatCannotBeCreatedLeavesNothingBehind() throws IOException {
        Files.writeString(dir.resolve("file"), "x");
        Export export = Exporter.build(ExportTool.ASTRA_SIM, ExportInput.catalog("dgx-spark"), "spark");
        BadInputException e = assertThrows(BadInputException.class,
                () -> Exporter.publish(export, dir.resolve("file").resolve("spark")));
        assertTrue(e.getMessage().startsWith("--out could not be written"), e.getMessage());
        assertEquals(List.of("file"), names(dir));
    }

    @Test
    void anUnknownToolIsRefusedWithTheKnownOnes() {
        BadInputException e = assertThrows(BadInputException.class, () -> ExportTool.of("gnez"));
        assertEquals("--to must be one of llm-analysis, calculon, genz, astra-sim: --to=gnez", e.getMessage());
    }

    @Test
    void measuredOnlyNeedsAProfile() {
        assertThrows(BadInputException.class, () -> new ExportInput(ExportInput.catalog("h100").machine(), null,
                null, "catalog entry h100", true, null));
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertFalse(names.stream().anyMatch(n -> n.contains(".tmp-")), names.toString());
            return names;
        }
    }
}
