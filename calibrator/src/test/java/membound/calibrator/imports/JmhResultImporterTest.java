package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import membound.calibrator.Fixtures;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;

/** The raw JMH JSON of membound's own suite, as `membound import --format jmh` reads it. */
class JmhResultImporterTest {

    static final Path FIXTURE = Fixtures.local("jmh-1.37-membound-stream-latency-2threads.json");
    /** Of the fixture's first result (Triad, 32 MiB arrays, 2 threads): its fastest and median pass, in us. */
    static final double BEST_PASS_MICROS = 1347.584;
    static final double MEDIAN_PASS_MICROS = 1650.688;
    /** Three arrays of 32 MiB, one repetition per pass (96 MiB is more than the 64 MiB a pass must move). */
    static final double TRIAD_BYTES_PER_PASS = 3.0 * (32 << 20);

    @Test
    void shouldRebuildEveryPassOfEachBandwidthResult() {
        ImportedFigures figures = ImportFormat.JMH.parse(FIXTURE, 0);

        assertEquals("JMH (membound benchmarks)", figures.tool());
        assertEquals("1.37", figures.toolVersion());
        assertEquals(6, figures.bandwidth().size());
        ImportedBandwidth triad = figures.bandwidth().get(0);
        assertEquals("triad", triad.kernel());
        assertEquals(AccessPattern.TRIAD, triad.access());
        assertEquals(2, triad.threads());
        assertEquals(3L * (32 << 20), triad.workingSetBytes());
        assertEquals(266, triad.streamBytesPerSecond().samples());
        assertEquals(TRIAD_BYTES_PER_PASS / BEST_PASS_MICROS * 1e6, triad.streamBytesPerSecond().best(),
                triad.streamBytesPerSecond().best() * 2e-3);
        assertEquals(TRIAD_BYTES_PER_PASS / MEDIAN_PASS_MICROS * 1e6, triad.streamBytesPerSecond().median(),
                triad.streamBytesPerSecond().median() * 2e-3);
        assertTrue(triad.provenance().settings().containsKey("param.workingSet"));
        assertEquals(AccessPattern.READ, figures.bandwidth().stream().filter(b -> b.kernel().equals("sum")).findFirst()
                .orElseThrow().access());
        assertEquals(2, figures.skipped().size(), "the two latency results are listed as not imported");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "symbolic working set|\"workingSet\" : \"32MiB:33554432\"|\"workingSet\" : \"DRAM\"|workingSet",
            "another mode|\"mode\" : \"sample\"|\"mode\" : \"thrpt\"|mode",
            "unknown kernel|\"kernel\" : \"TRIAD\"|\"kernel\" : \"QUAD\"|kernel",
            "team size in words|\"threads\" : \"2\"|\"threads\" : \"all\"|threads",
            "negative pass time|[ 1347.584|[ -1347.584|rawDataHistogram",
            "unknown unit|\"us/op\"|\"furlongs/op\"|scoreUnit"})
    void shouldRefuseWhatTheSuiteNeverWritesNamingFileFieldAndValue(String what, String from, String to, String field)
            throws IOException {
        String text = Files.readString(FIXTURE);
        assertTrue(text.contains(from), () -> "the fixture must contain " + from);
        byte[] bytes = text.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to))
                .getBytes(StandardCharsets.UTF_8);

        BadInputException e = assertThrows(BadInputException.class, () -> ImportFormat.JMH.parse(bytes, "bad.json", 0));

        assertTrue(e.getMessage().contains(field) && e.getMessage().contains("file=bad.json"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void shouldRefuseAFileWithNoBandwidthResult() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> ImportFormat.JMH.parse("[]".getBytes(StandardCharsets.UTF_8), "empty.json", 0));
        assertTrue(e.getMessage().contains("non-empty") && e.getMessage().contains("empty.json"), e.getMessage());
    }
}
