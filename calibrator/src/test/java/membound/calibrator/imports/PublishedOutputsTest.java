package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import membound.calibrator.Fixtures;
import membound.profile.Link;
import membound.vocabulary.BadInputException;

/**
 * Every output in {@code fixtures/published} (real outputs others published, listed in its SOURCES.md) read by
 * its importer: the key figure a person reads from the file must be the figure the importer extracts, and what
 * the importer infers (ranks, link kind) must be what the file shows. The table of expected and read figures is
 * written to {@code target/published-outputs.md}.
 */
class PublishedOutputsTest {

    /** The importers store printed rates times their unit: equal up to double rounding. */
    static final double SAME_FIGURE = 1e-12;
    static final int AT_LEAST = 40;

    private static final Pattern BEST = Pattern.compile("^(\\S+) best = ([0-9.]+) (MB/s|MiB/s)$");
    private static final Pattern BUSBW = Pattern.compile("^busbw\\((\\d+) B, out-of-place\\) = ([0-9.]+) GB/s$");
    private static final Pattern REFUSED = Pattern.compile("^refused: (.+)$");
    private static final Pattern RANKS = Pattern.compile("ranks (\\d+)");
    private static final Pattern LINK = Pattern.compile("link (\\w+)");

    private static final Map<String, String> READ = new ConcurrentHashMap<>();

    static Stream<PublishedOutputs.Row> rows() {
        return PublishedOutputs.rows().stream();
    }

    @Test
    void shouldListAtLeastFortyRealOutputsAndEveryFileInTheDirectory() throws IOException {
        List<PublishedOutputs.Row> rows = PublishedOutputs.rows();
        assertTrue(rows.size() >= AT_LEAST, "published outputs: " + rows.size());
        rows.forEach(r -> assertFalse(r.file().contains("synthetic"), "synthetic files do not belong here: " + r));
        try (Stream<Path> files = Files.list(Fixtures.local(PublishedOutputs.DIRECTORY))) {
            assertEquals(files.map(p -> p.getFileName().toString()).filter(n -> !n.equals("SOURCES.md")).sorted()
                    .toList(), rows.stream().map(PublishedOutputs.Row::file).sorted().toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldExtractTheKeyFigure(PublishedOutputs.Row row) {
        Matcher refused = REFUSED.matcher(row.figure());
        if (refused.matches()) {
            BadInputException e = assertThrows(BadInputException.class, () -> row.format().parse(row.path(), 0));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains("must contain a Passed device_local_copy or host/device test"),
                    e.getMessage());
            READ.put(row.file(), "refused: " + e.getMessage().replace(row.path().toString(), row.file()));
            return;
        }
        ImportedFigures figures = row.format().parse(row.path(), 0);
        Matcher best = BEST.matcher(row.figure());
        Matcher busbw = BUSBW.matcher(row.figure());
        if (best.matches()) {
            READ.put(row.file(), best(figures, best));
        } else if (busbw.matches()) {
            READ.put(row.file(), busbw(figures, busbw));
        } else {
            throw new IllegalStateException("SOURCES.md key figure not understood: " + row.figure());
        }
        checkInferred(row, figures);
    }

    private static String best(ImportedFigures figures, Matcher expected) {
        String kernel = expected.group(1);
        double unit = expected.group(3).equals("MiB/s") ? 1 << 20 : 1e6;
        BigDecimal printed = new BigDecimal(expected.group(2));
        ImportedBandwidth figure = figures.bandwidth().stream().filter(b -> b.kernel().equals(kernel)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kernel + " figure in " + figures.bandwidth()));
        double read = figure.streamBytesPerSecond().best();
        assertEquals(printed.doubleValue() * unit, read, read * SAME_FIGURE);
        return kernel + " best = " + sameDigits(read / unit, printed) + " " + expected.group(3);
    }

    private static String busbw(ImportedFigures figures, Matcher expected) {
        long size = Long.parseLong(expected.group(1));
        BigDecimal printed = new BigDecimal(expected.group(2));
        Link.Measurement m = figures.linkMeasurements().stream()
                .filter(x -> x.messageBytes() == size && !x.inPlace()).findFirst()
                .orElseThrow(() -> new AssertionError("no out-of-place result at " + size + " bytes"));
        double read = m.busBytesPerSecond();
        assertEquals(printed.doubleValue() * 1e9, read, read * SAME_FIGURE);
        return "busbw(" + size + " B, out-of-place) = " + sameDigits(read / 1e9, printed) + " GB/s";
    }

    private static void checkInferred(PublishedOutputs.Row row, ImportedFigures figures) {
        Matcher ranks = RANKS.matcher(row.inferred());
        String read = "";
        if (ranks.find()) {
            int expected = Integer.parseInt(ranks.group(1));
            int actual = row.format() == ImportFormat.NCCL_TESTS
                    ? figures.linkMeasurements().get(0).ranks() : figures.bandwidth().get(0).threads();
            assertEquals(expected, actual, "ranks");
            read = "ranks " + actual;
        }
        Matcher link = LINK.matcher(row.inferred());
        if (link.find()) {
            String actual = InferredLinkKind.of(figures, row.format(), null).map(k -> k.kind().label()).orElse("none");
            assertEquals(link.group(1), actual, "link kind inferred from the file alone");
            read += ", link " + actual;
        }
        if (!read.isEmpty()) {
            READ.merge(row.file(), read, (figure, inferred) -> figure + " | " + inferred);
        }
    }

    /** {@code read} printed with the digits of the expected figure, so the two read side by side. */
    private static String sameDigits(double read, BigDecimal printed) {
        return BigDecimal.valueOf(read).setScale(printed.scale(), RoundingMode.HALF_EVEN).toPlainString();
    }

    @AfterAll
    static void writeTable() throws IOException {
        Map<String, String> read = new TreeMap<>(READ);
        StringBuilder table = new StringBuilder("| file | tool and version | source | expected figure | figure read |"
                + " inferred (expected) | inferred (read) |\n|---|---|---|---|---|---|---|\n");
        for (PublishedOutputs.Row row : PublishedOutputs.rows()) {
            String[] got = read.getOrDefault(row.file(), "(not run)").split(" \\| ", 2);
            table.append("| ").append(row.file()).append(" | ").append(row.tool()).append(" | ").append(row.source())
                    .append(" | ").append(row.figure()).append(" | ").append(got[0].replace("|", "/")).append(" | ")
                    .append(row.inferred()).append(" | ").append(got.length > 1 ? got[1] : "").append(" |\n");
        }
        Path target = Fixtures.repositoryRoot().resolve("calibrator/target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("published-outputs.md"), table);
    }
}
