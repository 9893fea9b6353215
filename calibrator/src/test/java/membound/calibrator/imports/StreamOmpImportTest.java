package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.calibrator.Fixtures;
import membound.profile.Distribution;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;

/**
 * The repository's own C reference (scripts/reference/stream-omp.c) imports: every reference output the project
 * ships is one {@code membound import} reads, and a line edited or run twice is refused in one line.
 */
class StreamOmpImportTest {

    private static String fixture() throws Exception {
        return Files.readString(Fixtures.local("stream-omp-2threads-16M.txt"), StandardCharsets.UTF_8);
    }

    private static ImportedFigures parse(String text) {
        return ImportFormat.STREAM_OMP.parse(text.getBytes(StandardCharsets.UTF_8), "out.txt", 0);
    }

    @Test
    void shouldReadEachLineAsOneFigureWithItsBestAndMedian() throws Exception {
        ImportedFigures figures = ImportFormat.STREAM_OMP.parse(Fixtures.local("stream-omp-2threads-16M.txt"), 0);
        assertEquals("stream-omp", figures.tool());
        Map<String, ImportedBandwidth> k = ImportersTest.byKernel(figures);
        assertEquals(List.of("copy", "sum", "triad"), figures.bandwidth().stream().map(ImportedBandwidth::kernel).toList());
        Distribution triad = k.get("triad").streamBytesPerSecond();
        assertEquals(14.92e9, triad.best());
        assertEquals(7.78e9, triad.median());
        assertEquals(9, triad.samples(), "10 passes, the first dropped");
        assertEquals(3L * 16777216 * 8, k.get("triad").workingSetBytes());
        assertEquals(16777216L * 8, k.get("sum").workingSetBytes());
        assertEquals(2, k.get("triad").threads());
        assertEquals("double", k.get("triad").elementType());
        assertEquals(AccessPattern.TRIAD, k.get("triad").access());
        assertEquals(AccessPattern.READ, k.get("sum").access());
        assertEquals("0", k.get("copy").provenance().settings().get("libc"));
    }

    @Test
    void shouldRefuseALineWhoseRateDisagreesWithItsBytesAndTime() throws Exception {
        String edited = fixture().replace("best_GBps=14.92", "best_GBps=41.92");
        BadInputException e = assertThrows(BadInputException.class, () -> parse(edited));
        assertTrue(e.getMessage().contains("be self-consistent (best_GBps"), e.getMessage());
        assertTrue(e.getMessage().contains("line=3"), e.getMessage());
    }

    @Test
    void shouldRefuseAKernelRunTwiceWithTheSameThreads() throws Exception {
        String twice = fixture() + fixture().lines().filter(l -> l.contains("kernel=copy")).findFirst().orElseThrow() + "\n";
        BadInputException e = assertThrows(BadInputException.class, () -> parse(twice));
        assertTrue(e.getMessage().contains("one line per kernel and thread count"), e.getMessage());
    }

    @Test
    void shouldRefuseALineThatIsNotStreamOmps() throws Exception {
        BadInputException e = assertThrows(BadInputException.class,
                () -> parse(fixture() + "stream-omp: triad failed validation: 12 wrong elements\n"));
        assertTrue(e.getMessage().contains("hold only stream-omp's result lines"), e.getMessage());
    }

    @Test
    void shouldNameStreamOmpWhenItsOutputIsGivenAsStreamC() throws Exception {
        BadInputException e = assertThrows(BadInputException.class,
                () -> ImportFormat.STREAM.parse(fixture().getBytes(StandardCharsets.UTF_8), "out.txt", 0));
        assertTrue(e.getMessage().endsWith("give --format stream-omp"), e.getMessage());
    }
}
