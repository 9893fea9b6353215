package membound.model;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The model's committed tables (engines, kernel counts, trainers, trainer terms): tab-separated, {@code #} comments,
 * one header line, a fixed number of columns per row and the last one, its source, never blank. A table that breaks
 * that is a build defect, not user input: an {@link IllegalStateException} naming the table and the row.
 */
public final class ResourceTable {

    private ResourceTable() {
    }

    /** The rows of {@code resource} (on this class's loader), each split into its {@code columns} fields. */
    public static List<String[]> rows(String resource, int columns) {
        try (InputStream in = ResourceTable.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String[]> rows = new ArrayList<>();
            boolean header = true;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != columns || f[columns - 1].isBlank()) {
                    throw new IllegalStateException(resource + ": every row needs " + columns + " columns, the last a "
                            + "source: " + line);
                }
                rows.add(f);
            }
            return List.copyOf(rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
