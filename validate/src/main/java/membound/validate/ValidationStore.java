package membound.validate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

import membound.vocabulary.files.ResultNames;

/**
 * Recorded validations: {@code results/validate/<host>-<yyyyMMdd'T'HHmmss'Z'>.json}, UTC, written atomically and
 * never over another file (a second run in the same second is named {@code -2}, {@code -3}, ...).
 */
public final class ValidationStore {

    private final Path directory;

    public ValidationStore(Path directory) {
        this.directory = directory;
    }

    /** {@code results/validate} under the {@code membound.repositoryRoot} property (the launcher sets it), else the cwd. */
    public static ValidationStore repositoryDefault() {
        return new ValidationStore(ResultNames.repositoryResults("validate"));
    }

    public Path directory() {
        return directory;
    }

    /** Writes the report's JSON under a new name; returns the path. */
    public Path save(ValidationReport report) {
        String base = ResultNames.base(report.hostname(), Instant.parse(report.createdUtc()));
        return ResultNames.writeNumbered(directory, base, ReportFormat.json(report).getBytes(StandardCharsets.UTF_8),
                "results directory");
    }
}
