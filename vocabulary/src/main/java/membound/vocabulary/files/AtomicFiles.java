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

/**
 * Writes a file so that it appears whole or not at all, and never over another file.
 *
 * <p>The bytes go to a hidden temporary file in the same directory ({@code .NAME.tmp-RANDOM}), which is
 * forced to disk; then the temporary is hard-linked to the final name, which fails if that name exists
 * (rename would silently replace it), the temporary is removed and the directory forced. A process
 * killed at any point leaves either no final file or the complete one, plus at most a temporary that no
 * reader looks at. Where the file system has no hard links, a plain move that refuses to replace is used:
 * still whole-or-nothing, but another writer could slip in between its existence check and the move.
 */
public final class AtomicFiles {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Prefix of temporary files; nothing that lists profiles looks at names starting with '.'. */
    public static final String TEMP_PREFIX = ".";
    static final String TEMP_INFIX = ".tmp-";

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
        byte[] suffix = new byte[6];
        RANDOM.nextBytes(suffix);
        Path temp = directory.resolve(TEMP_PREFIX + target.getFileName() + TEMP_INFIX + HexFormat.of().formatHex(suffix));
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            beforePublish.run();
            publish(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
        forceDirectory(directory);
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
