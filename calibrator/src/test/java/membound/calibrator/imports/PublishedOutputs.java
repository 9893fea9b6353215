package membound.calibrator.imports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import membound.calibrator.Fixtures;

/**
 * The outputs others published ({@code fixtures/published}), one per row of its {@code SOURCES.md}: the file,
 * the tool and version, where it came from, the key figure a correct importer extracts and what it must infer.
 */
final class PublishedOutputs {

    static final String DIRECTORY = "published";

    /**
     * One row of SOURCES.md.
     *
     * @param file     the fixture's name
     * @param tool     tool and version, as the file shows them
     * @param source   where it was published
     * @param figure   the key figure, as a person reads it from the file
     * @param inferred what the importer must infer ("ranks 16, link network"), or empty
     */
    record Row(String file, String tool, String source, String figure, String inferred) {

        Path path() {
            return Fixtures.local(DIRECTORY + "/" + file);
        }

        ImportFormat format() {
            return formatOf(file);
        }

        @Override
        public String toString() {
            return file;
        }
    }

    private PublishedOutputs() {
    }

    static List<Row> rows() {
        Path sources = Fixtures.local(DIRECTORY + "/SOURCES.md");
        List<Row> rows = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(sources)) {
                if (!line.startsWith("| `")) {
                    continue;
                }
                String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
                if (cells.length != 6) {
                    throw new IllegalStateException("SOURCES.md rows have 6 cells: " + line);
                }
                rows.add(new Row(cells[0].strip().replace("`", ""), cells[1].strip(), cells[2].strip(),
                        cells[4].strip(), cells[5].strip()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** The format a published file is in, by its name's first word. */
    static ImportFormat formatOf(String file) {
        if (file.startsWith("babelstream")) {
            return ImportFormat.BABELSTREAM;
        }
        if (file.startsWith("stream-")) {
            return ImportFormat.STREAM;
        }
        if (file.startsWith("likwid")) {
            return ImportFormat.LIKWID;
        }
        if (file.startsWith("nccl-tests") || file.startsWith("rccl-tests")) {
            return ImportFormat.NCCL_TESTS;
        }
        if (file.startsWith("nvbandwidth")) {
            return ImportFormat.NVBANDWIDTH;
        }
        throw new IllegalStateException("no format for published fixture " + file);
    }
}
