package membound.vocabulary.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What an interrupted publish leaves behind (a hidden {@code .NAME.tmp-PID-RANDOM} file, a hidden
 * {@code .NAME.partial-TIME-PID} report directory), and how the next run removes it: an entry whose writer
 * process is gone is a leftover; one whose writer still runs is another publish in progress and is left alone.
 * Entries named before the name carried the process (or whose process number cannot be read) count as
 * leftovers once they are older than {@link #UNOWNED_AGE}, far longer than any write takes.
 */
public final class Leftovers {

    /** How old an entry without a readable writer must be before it is taken for a leftover. */
    static final Duration UNOWNED_AGE = Duration.ofHours(1);

    private Leftovers() {
    }

    /**
     * Removes every entry of {@code directory} whose name matches {@code pattern} (its group {@code pid}, where it
     * matched, names the writer) and whose writer is gone; best effort, a directory that cannot be listed is
     * left as it is.
     */
    public static void remove(Path directory, Pattern pattern) {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                Matcher m = pattern.matcher(entry.getFileName().toString());
                if (m.matches() && isLeftover(entry, m)) {
                    delete(entry);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Best effort: a leftover is hidden and names itself; it never stops a new publish.
        }
    }

    /** A problem with a file as one short line: the system's reason ("No space left on device") where it gives one. */
    public static String problem(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static boolean isLeftover(Path entry, Matcher m) throws IOException {
        String pid = m.group("pid");
        if (pid != null) {
            try {
                long owner = Long.parseLong(pid);
                return owner != ProcessHandle.current().pid() && ProcessHandle.of(owner).map(p -> !p.isAlive())
                        .orElse(true);
            } catch (NumberFormatException e) {
                // fall through to the age rule
            }
        }
        FileTime modified = Files.getLastModifiedTime(entry);
        return modified.toInstant().isBefore(Instant.now().minus(UNOWNED_AGE));
    }

    private static void delete(Path entry) throws IOException {
        try (Stream<Path> walk = Files.walk(entry)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
