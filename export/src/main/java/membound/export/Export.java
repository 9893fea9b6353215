package membound.export;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one export writes: the tool's files (one file, or the files of one directory), every figure in them with
 * its provenance, the notes that go to stderr (a datasheet figure standing in, a neutral value), and the command
 * line that runs the tool on them.
 *
 * @param files   file names and bytes, in writing order; one entry for a single-file tool and its sidecar where it
 *                has one
 * @param command the tool's own command line for these files, with the flags that carry what the file cannot
 */
public record Export(ExportTool tool, Map<String, byte[]> files, List<ExportedFigure> figures, List<String> notes,
                     String command) {

    public Export {
        files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
        figures = List.copyOf(figures);
        notes = List.copyOf(notes);
    }

    /** The figure written under {@code key} into {@code file}, or null. */
    public ExportedFigure figure(String file, String key) {
        for (ExportedFigure f : figures) {
            if (f.file().equals(file) && f.key().equals(key)) {
                return f;
            }
        }
        return null;
    }
}
