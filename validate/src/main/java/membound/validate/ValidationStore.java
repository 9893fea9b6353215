package membound.validate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import membound.calibrator.store.AtomicFiles;
import membound.calibrator.store.ProfileStore;
import membound.hardware.BadInputException;

/**
 * Recorded validations: {@code results/validate/<host>-<yyyyMMdd'T'HHmmss'Z'>.json}, UTC, written atomically and
 * never over another file (a second run in the same second is named {@code -2}, {@code -3}, ...).
 */
public final class ValidationStore {

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final int MAX_ATTEMPTS = 1000;

    private final Path directory;

    public ValidationStore(Path directory) {
        this.directory = directory;
    }

    /** {@code results/validate} under the {@code membound.repositoryRoot} property (the launcher sets it), else the cwd. */
    public static ValidationStore repositoryDefault() {
        String root = System.getProperty("membound.repositoryRoot");
        return new ValidationStore((root != null ? Path.of(root) : Path.of("")).resolve("results").resolve("validate"));
    }

    public Path directory() {
        return directory;
    }

    /** Writes the report's JSON under a new name; returns the path. */
    public Path save(ValidationReport report) {
        String base = ProfileStore.hostPart(report.hostname()) + "-" + STAMP.format(Instant.parse(report.createdUtc()));
        byte[] bytes = ReportFormat.json(report).getBytes(StandardCharsets.UTF_8);
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Path target = directory.resolve((attempt == 1 ? base : base + "-" + attempt) + ".json");
            try {
                AtomicFiles.writeNew(target, bytes);
                return target;
            } catch (FileAlreadyExistsException e) {
                // taken: try the next suffix
            } catch (IOException e) {
                throw new BadInputException("results directory must be writable: directory=" + directory + ", problem="
                        + e.getMessage(), e);
            }
        }
        throw new BadInputException("result name must be free: directory=" + directory + ", name=" + base + " (tried "
                + MAX_ATTEMPTS + " suffixes)");
    }
}
