package membound.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

/** A report goes into a new or empty directory, whole, and never over what a user made. */
class ReportFilesTest {

    @TempDir
    Path dir;

    private static Map<String, byte[]> files() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("index.html", "<p>page</p>".getBytes(StandardCharsets.UTF_8));
        files.put("chart.svg", "<svg/>".getBytes(StandardCharsets.UTF_8));
        return files;
    }

    @Test
    void shouldCreateANewDirectoryWithParents() throws Exception {
        Path out = dir.resolve("a/b/report");
        ReportFiles.writeNew(out, files());
        assertArrayEquals(files().get("index.html"), Files.readAllBytes(out.resolve("index.html")));
        assertEquals(List.of("a"), names(dir), "no staging directory left behind");
        assertEquals(List.of("report"), names(dir.resolve("a/b")));
    }

    @Test
    void shouldFillAnEmptyDirectory() throws Exception {
        Path out = Files.createDirectory(dir.resolve("empty"));
        ReportFiles.writeNew(out, files());
        assertEquals(List.of("chart.svg", "index.html"), names(out));
        assertEquals(List.of("empty"), names(dir), "no staging directory left behind");
    }

    @Test
    void shouldRefuseADirectoryThatHoldsAnythingAndLeaveItAsItWas() throws Exception {
        Path out = Files.createDirectory(dir.resolve("mine"));
        Files.writeString(out.resolve("notes.txt"), "keep me");
        BadInputException e = assertThrows(BadInputException.class, () -> ReportFiles.writeNew(out, files()));
        assertEquals("out must be a new or empty directory (report never overwrites): out=" + out, e.getMessage());
        assertEquals(List.of("notes.txt"), names(out));
        assertEquals("keep me", Files.readString(out.resolve("notes.txt")));
        assertEquals(List.of("mine"), names(dir));
    }

    @Test
    void shouldRefuseAFile() throws Exception {
        Path out = Files.writeString(dir.resolve("report"), "a file");
        BadInputException e = assertThrows(BadInputException.class, () -> ReportFiles.writeNew(out, files()));
        assertTrue(e.getMessage().startsWith("out must be a new or empty directory, not an existing file: out="), e.getMessage());
        assertEquals("a file", Files.readString(out));
    }

    private static List<String> names(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
