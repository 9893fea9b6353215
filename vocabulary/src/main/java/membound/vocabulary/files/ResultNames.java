package membound.vocabulary.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;

/**
 * How membound names what it records: {@code <host>-<yyyyMMdd'T'HHmmss'Z'>.json} in UTC, after the host and
 * the time of the run, with {@code -2}, {@code -3}, ... for a second result of the same host in the same
 * second; and where the repository's {@code results/} folders are.
 */
public final class ResultNames {

    /** {@code host-20251129T120000Z.json} or {@code host-20251129T120000Z-2.json}: host, stamp, counter. */
    public static final Pattern NAME = Pattern.compile("^(.+)-(\\d{8}T\\d{6}Z)(?:-(\\d+))?\\.json$");
    /** Names tried for one base before giving up. */
    public static final int MAX_ATTEMPTS = 1000;
    /** The system property the launcher sets to the repository root. */
    public static final String REPOSITORY_ROOT_PROPERTY = "membound.repositoryRoot";

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ResultNames() {
    }

    /** The host as it appears in file names: characters other than letters, digits, '.', '_' and '-' become '_'. */
    public static String hostPart(String hostname) {
        return hostname.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** {@code <host>-<UTC stamp>}, without counter or extension. */
    public static String base(String hostname, Instant time) {
        return hostPart(hostname) + "-" + STAMP.format(time);
    }

    /** The name of the {@code attempt}-th try for {@code base}: the base itself, then {@code base-2}, ... */
    public static String attempt(String base, int attempt) {
        return attempt == 1 ? base : base + "-" + attempt;
    }

    /** {@code results/<folder>} under the repository root the launcher names, else under the working directory. */
    public static Path repositoryResults(String folder) {
        String root = System.getProperty(REPOSITORY_ROOT_PROPERTY);
        return (root != null ? Path.of(root) : Path.of("")).resolve("results").resolve(folder);
    }

    /**
     * Writes {@code bytes} as {@code <base>.json} in {@code directory}, or the first free {@code <base>-N.json},
     * atomically and never over another file; returns the path. {@code what} names the directory in errors.
     */
    public static Path writeNumbered(Path directory, String base, byte[] bytes, String what) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Path target = directory.resolve(attempt(base, attempt) + ".json");
            try {
                AtomicFiles.writeNew(target, bytes);
                return target;
            } catch (FileAlreadyExistsException e) {
                // taken: try the next counter
            } catch (IOException e) {
                throw new BadInputException(what + " must be writable: directory=" + directory + ", problem="
                        + e.getMessage(), e);
            }
        }
        throw nameTaken(directory, base, what);
    }

    /** The error when every counter of {@code base} is taken. */
    public static BadInputException nameTaken(Path directory, String base, String what) {
        return new BadInputException(what + " name must be free: directory=" + directory + ", name=" + base
                + " (tried " + MAX_ATTEMPTS + " suffixes)");
    }
}
