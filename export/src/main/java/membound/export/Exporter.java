package membound.export;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.AtomicFiles;
import membound.vocabulary.files.Leftovers;

/**
 * {@code membound export}: a profile or catalog entry as a tool's own hardware files. {@link #build} makes every
 * byte in memory first; {@link #publish} writes them whole or not at all, never over an existing file.
 */
public final class Exporter {

    private Exporter() {
    }

    /**
     * The export for {@code tool}.
     *
     * @param name the output's file name (single-file tools) or directory name (ASTRA-sim), as the files and the
     *             command line name it
     */
    public static Export build(ExportTool tool, ExportInput input, String name) {
        return switch (tool) {
            case LLM_ANALYSIS -> LlmAnalysisExport.build(input, name);
            case CALCULON -> CalculonExport.build(input, name);
            case GENZ -> GenzExport.build(input, name);
            case ASTRA_SIM -> AstraSimExport.build(input, name);
        };
    }

    /** The output name when {@code --out} is not given: {@code <source>.<tool>.json}, or a directory for ASTRA-sim. */
    public static String defaultName(ExportTool tool, ExportInput input) {
        String source = input.fromProfile()
                ? LlmAnalysisExport.stripJson(Path.of(input.origin()).getFileName().toString()) + "-"
                + input.machine().device().id() : input.machine().id();
        return ToolJson.slug(source) + "." + tool.label() + (tool.directory() ? "" : ".json");
    }

    /**
     * Writes the export at {@code out}: a directory tool's files as one directory published whole; a single file
     * and its sidecar, each atomically, the sidecar removed again if the file cannot be written. Nothing is
     * written where any target exists.
     *
     * @return the paths written
     */
    public static List<Path> publish(Export export, Path out) {
        List<Path> written = new ArrayList<>();
        try {
            if (export.tool().directory()) {
                refuseExisting(out);
                AtomicFiles.writeNewDirectory(out, export.files());
                written.add(out);
                return written;
            }
            Path dir = out.toAbsolutePath().getParent();
            for (String name : export.files().keySet()) {
                refuseExisting(dir.resolve(name));
            }
            try {
                for (Map.Entry<String, byte[]> f : export.files().entrySet()) {
                    Path target = dir.resolve(f.getKey());
                    AtomicFiles.writeNew(target, f.getValue());
                    written.add(target);
                }
            } catch (IOException | RuntimeException e) {
                for (Path p : written) {
                    Files.deleteIfExists(p);
                }
                throw e;
            }
            return written;
        } catch (FileAlreadyExistsException e) {
            Path dir = out.toAbsolutePath().getParent();
            boolean target = export.tool().directory() ? Path.of(e.getFile()).toAbsolutePath().equals(
                    out.toAbsolutePath()) : export.files().keySet().stream().anyMatch(n -> dir.resolve(n).equals(
                    Path.of(e.getFile()).toAbsolutePath()));
            if (target) {
                throw new BadInputException("--out must not exist: an export never replaces a file: out="
                        + e.getFile());
            }
            throw new BadInputException("--out could not be written (not a directory: " + e.getFile() + "): out="
                    + out);
        } catch (IOException e) {
            throw new BadInputException("--out could not be written (" + Leftovers.problem(e) + "): out=" + out);
        }
    }

    /** A written value as the file has it: plain decimal, six significant digits. */
    public static String plain(double value) {
        return FigureLog.round(value).toPlainString();
    }

    private static void refuseExisting(Path target) {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInputException("--out must not exist: an export never replaces a file: out=" + target);
        }
    }
}
