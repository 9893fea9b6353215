package membound.vocabulary.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Writes a file so that it appears whole or not at all, and never over another file.
 *
 * <p>The bytes go to a hidden temporary file in the same directory ({@code .NAME.tmp-PID-RANDOM}), which is
 * forced to disk; then the temporary is hard-linked to the final name, which fails if that name exists
 * (rename would silently replace it), the temporary is removed and the directory forced. A process
 * killed at any point leaves either no final file or the complete one, plus at most a temporary that no
 * reader looks at. Where the file system has no hard links, a plain move that refuses to replace is used:
 * still whole-or-nothing, but another writer could slip in between its existence check and the move. A
 * temporary that a killed writer left is removed by the next write into the directory ({@link Leftovers}).
 */
public final class AtomicFiles {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Prefix of temporary files; nothing that lists profiles looks at names starting with '.'. */
    public static final String TEMP_PREFIX = ".";
    static final String TEMP_INFIX = ".tmp-";

    /** A temporary of this class: {@code .NAME.tmp-PID-RANDOM}, or {@code .NAME.tmp-RANDOM} as older versions named it. */
    private static final Pattern TEMPORARY = Pattern.compile("\\..+\\.tmp-(?:(?<pid>[0-9]+)-)?[0-9a-f]+");

    private AtomicFiles() {
    }

    /** Writes {@code bytes} to {@code target}; throws {@link FileAlreadyExistsException} if it exists. */
    public static void writeNew(Path target, byte[] bytes) throws IOException {
        writeNew(target, bytes, () -> { });
    }

    public static void writeNew(Path target, byte[] bytes, Runnable beforePublish) throws IOException {
        Path directory = target.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Leftovers.remove(directory, TEMPORARY);
        Path temp = temporary(directory, target.getFileName().toString());
        try {
            writeDurably(temp, bytes);
            beforePublish.run();
            publish(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
        forceDirectory(directory);
    }

    /**
     * Publishes a directory of files whole or not at all: every file is written durably into a hidden temporary
     * directory beside {@code target}, which is then renamed to {@code target}. A rename refuses an existing
     * target here (it is checked first, and {@link Files#move} without {@code REPLACE_EXISTING} refuses one that
     * appears in between unless it is an empty directory, which nothing of value is); a process killed at any point
     * leaves no {@code target} or the complete one, plus at most a temporary that no reader looks at.
     *
     * @param files relative file names (no separators) and their bytes, in the order they are written
     * @throws FileAlreadyExistsException if {@code target} exists
     */
    public static void writeNewDirectory(Path target, java.util.Map<String, byte[]> files) throws IOException {
        Path directory = target.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Leftovers.remove(directory, TEMPORARY);
        Path temp = temporary(directory, target.getFileName().toString());
        Files.createDirectory(temp);
        boolean published = false;
        try {
            for (java.util.Map.Entry<String, byte[]> file : files.entrySet()) {
                String name = file.getKey();
                if (name.isEmpty() || name.contains("/") || name.contains(java.io.File.separator) || name.startsWith(".")) {
                    throw new IllegalArgumentException("file name must be plain: name=" + name);
                }
                writeDurably(temp.resolve(name), file.getValue());
            }
            forceDirectory(temp);
            if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            Files.move(temp, target);
            published = true;
        } finally {
            if (!published) {
                try (java.util.stream.Stream<Path> left = Files.list(temp)) {
                    for (Path p : (Iterable<Path>) left::iterator) {
                        Files.deleteIfExists(p);
                    }
                } catch (java.nio.file.NoSuchFileException e) {
                    // Nothing was created.
                }
                Files.deleteIfExists(temp);
            }
        }
        forceDirectory(directory);
    }

    /**
     * Checks, before any long work, that files can be written into {@code directory}: a small temporary is
     * written to disk and removed in it, or, where it does not exist yet, in the nearest directory above it that
     * does (where it will be created). A read-only or full file system, or a file where a directory must be, is
     * an {@link IOException} here, not after a seven-minute measurement; nothing is left behind.
     */
    public static void checkWritable(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        try {
            // A path the system refuses to look up (longer than PATH_MAX, a name beyond NAME_MAX) fails here.
            Files.readAttributes(absolute, java.nio.file.attribute.BasicFileAttributes.class);
        } catch (java.nio.file.NoSuchFileException e) {
            // Not there yet: it will be created, below the nearest directory that is.
        }
        Path existing = nearestExisting(absolute);
        if (!Files.isDirectory(existing)) {
            throw new java.nio.file.FileSystemException(existing.toString(), null, "not a directory");
        }
        Path probe = temporary(existing, "membound-write-check");
        try {
            writeDurably(probe, new byte[] {'\n'});
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    /** The deepest directory of {@code path}'s ancestors (or itself) that exists, found from the root down. */
    private static Path nearestExisting(Path path) {
        Path existing = path.getRoot();
        for (Path name : path) {
            Path next = existing == null ? name : existing.resolve(name);
            if (!Files.exists(next)) {
                break;
            }
            existing = next;
        }
        return existing == null ? Path.of("").toAbsolutePath() : existing;
    }

    private static Path temporary(Path directory, String name) {
        byte[] suffix = new byte[6];
        RANDOM.nextBytes(suffix);
        return directory.resolve(TEMP_PREFIX + name + TEMP_INFIX + ProcessHandle.current().pid() + "-"
                + HexFormat.of().formatHex(suffix));
    }

    private static void writeDurably(Path file, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    private static void publish(Path temp, Path target) throws IOException {
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (UnsupportedOperationException | IOException e) {
            // No hard links here (some network and FAT file systems): a move that refuses to replace.
            Files.move(temp, target);
        }
    }

    /** Makes the directory entry itself durable; not every platform can open a directory, which is fine. */
    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Best effort: the file itself is already on disk.
        }
    }
}
