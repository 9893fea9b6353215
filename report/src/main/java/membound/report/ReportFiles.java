package membound.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.AtomicFiles;
import membound.vocabulary.files.Leftovers;

/**
 * Writes a report into a directory that is new or empty, never over anything a user made: the files go
 * to a hidden directory beside it first ({@code .NAME.partial-TIME-PID}) and are moved in only once all of them
 * are written. What a killed report left there is removed by the next one ({@link Leftovers}).
 */
public final class ReportFiles {

    private static final Pattern STAGING = Pattern.compile("\\..+\\.partial-[0-9a-f]+-(?<pid>[0-9]+)");

    private ReportFiles() {
    }

    /** Refuses an output directory that holds anything, or a path that is not a directory. */
    public static void checkWritable(Path out) {
        if (Files.exists(out, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInputException("out must be a new or empty directory, not an existing file: out=" + out);
        }
        if (Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS) && !isEmpty(out)) {
            throw new BadInputException("out must be a new or empty directory (report never overwrites): out=" + out);
        }
        Path absolute = out.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        try {
            AtomicFiles.checkWritable(parent == null ? absolute : parent);
            if (parent != null && Files.isDirectory(parent)) {
                // The staging directory itself, made and removed: a name too long for the file system fails here.
                Files.delete(Files.createDirectory(staging(absolute)));
            }
        } catch (IOException e) {
            throw notWritable(out, e);
        }
    }

    /** The hidden directory beside {@code absolute} that a report is written into before it gets its name. */
    private static Path staging(Path absolute) {
        return absolute.resolveSibling("." + absolute.getFileName() + ".partial-" + Long.toHexString(System.nanoTime())
                + "-" + ProcessHandle.current().pid());
    }

    private static BadInputException notWritable(Path out, IOException e) {
        return new BadInputException("out must be a directory this user can write, on a file system with room: out="
                + out + ", problem=" + Leftovers.problem(e), e);
    }

    /** Writes every file under {@code out}, which must be new or empty; out's parents are created as needed. */
    public static void writeNew(Path out, Map<String, byte[]> files) {
        checkWritable(out);
        Path absolute = out.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        Path staging = null;
        try {
            Files.createDirectories(parent);
            Leftovers.remove(parent, STAGING);
            // createDirectory (not createTempDirectory, which makes it private to this user) keeps the umask's permissions.
            staging = Files.createDirectory(staging(absolute));
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Files.write(staging.resolve(f.getKey()), f.getValue());
            }
            if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                // One rename: the directory appears whole or not at all.
                Files.move(staging, absolute, StandardCopyOption.ATOMIC_MOVE);
                staging = null;
            } else {
                checkWritable(absolute);
                for (String name : files.keySet()) {
                    Files.move(staging.resolve(name), absolute.resolve(name), StandardCopyOption.ATOMIC_MOVE);
                }
            }
        } catch (IOException e) {
            throw notWritable(out, e);
        } finally {
            if (staging != null) {
                deleteQuietly(staging);
            }
        }
    }

    private static boolean isEmpty(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        } catch (IOException e) {
            throw new BadInputException("out must be a readable directory: out=" + dir + " (" + e.getMessage() + ")");
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // Best effort: a leftover hidden .partial directory is harmless and names itself.
        }
    }
}
