package membound.model.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every published {@code config.json} under {@code membound/model/configs/} against the parameter
 * count its publisher states ({@code expected.tsv}, with the source of each figure). A count agrees
 * when it is within 0.5% of the figure or within one unit of the figure's last published digit,
 * whichever is wider: model cards round or truncate ("3.3B activated" for 3.35 B), as
 * {@link PresetsTest} has it. The table goes to {@code model/target/config-corpus.md}.
 */
class ConfigCorpusTest {

    private static final double RELATIVE_TOLERANCE = 0.005;
    private static final String DIRECTORY = "/membound/model/configs/";

    /** One published figure: which file, which count, the figure, the unit of its last digit, its source. */
    record Expectation(String file, String quantity, double expected, double unit, String source) {

        Transformer transformer() {
            try {
                return HuggingFaceConfig.read(Path.of(ConfigCorpusTest.class.getResource(DIRECTORY + file).toURI()));
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }

        long computed() {
            ParameterCounts p = transformer().parameters();
            return switch (quantity) {
                case "total" -> p.total();
                case "active" -> p.active();
                case "active-without-input-embedding" -> p.active() - p.embedding();
                case "non-embedding" -> p.total() - p.embedding() - p.positionEmbedding() - vocabularyTable();
                // A checkpoint that saves a tied table under both its names stores it twice.
                case "stored-with-tied-table-twice" -> p.total() + (transformer().tiedEmbeddings() ? vocabularyTable() : 0);
                default -> throw new IllegalArgumentException("unknown quantity " + quantity);
            };
        }

        private long vocabularyTable() {
            Transformer tf = transformer();
            return (long) tf.vocabularySize() * tf.hiddenSize();
        }

        double error() {
            return computed() / expected - 1;
        }

        double tolerance() {
            return Math.max(RELATIVE_TOLERANCE, unit / expected);
        }
    }

    static List<Expectation> expectations() throws IOException {
        List<Expectation> rows = new ArrayList<>();
        try (InputStream in = ConfigCorpusTest.class.getResourceAsStream(DIRECTORY + "expected.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                rows.add(new Expectation(f[0], f[1], Double.parseDouble(f[2]), Double.parseDouble(f[3]), f[4]));
            }
        }
        return rows;
    }

    static Stream<Expectation> corpus() throws IOException {
        return expectations().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void shouldCountWhatThePublisherStates(Expectation row) {
        assertTrue(Math.abs(row.error()) <= row.tolerance(), () -> String.format(Locale.ROOT,
                "%s %s: computed %,d, published %.4g (%s), error %+.2f%% beyond %.2f%%", row.file(), row.quantity(),
                row.computed(), row.expected(), row.source(), 100 * row.error(), 100 * row.tolerance()));
    }

    @Test
    void shouldCheckEveryConfigOfTheCorpusAndListItsSource() throws IOException, URISyntaxException {
        Path directory = Path.of(ConfigCorpusTest.class.getResource(DIRECTORY).toURI());
        Set<String> files = new TreeSet<>();
        try (Stream<Path> listing = Files.list(directory)) {
            listing.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).forEach(files::add);
        }
        Set<String> checked = new TreeSet<>();
        expectations().forEach(row -> checked.add(row.file()));
        assertEquals(files, checked, "every config has a published count");
        String sources = Files.readString(directory.resolve("SOURCES.md"));
        for (String file : files) {
            assertTrue(sources.contains("| " + file + " | https://huggingface.co/"), file + " has its URL in SOURCES.md");
        }
    }

    /**
     * Writes the corpus table (config, quantity, published figure, computed count, error, tolerance,
     * source) to {@code target/config-corpus.md}, one row per published figure.
     */
    @Test
    void shouldWriteTheCorpusTable() throws IOException {
        List<Expectation> rows = expectations();
        StringBuilder table = new StringBuilder("| config | quantity | published | computed | error | tolerance | source |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (Expectation row : rows) {
            table.append(String.format(Locale.ROOT, "| %s | %s | %.4g | %,d | %+.2f%% | %.2f%% | %s |%n", row.file(),
                    row.quantity(), row.expected(), row.computed(), 100 * row.error(), 100 * row.tolerance(), row.source()));
        }
        Path out = Path.of("target", "config-corpus.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table);
        assertEquals(rows.size() + 2, Files.readAllLines(out).size());
    }
}
